/**
 * The waiting-room screen's credential (issue 23): a long-lived screen token an admin issues per
 * organization. It arrives once in the address (`?token=`), is kept in this browser's storage per
 * organization and removed from the address bar (so it is not left on show or in the history).
 */

export const SCREEN_TOKEN_PREFIX = 'yyp.screenToken.';

export function screenTokenKey(bucketId: string): string {
  return `${SCREEN_TOKEN_PREFIX}${bucketId}`;
}

export interface TokenPlace {
  /** the page's search string, e.g. "?token=abc" */
  search: string;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

/**
 * The token of `bucketId`: the address's `token` (stored for next time), else the stored one.
 * `cleanSearch` is the search string without the token (what the address bar should show).
 */
export function takeScreenToken(bucketId: string, place: TokenPlace): { token: string | null; cleanSearch: string } {
  const params = new URLSearchParams(place.search);
  const fromUrl = params.get('token')?.trim();
  params.delete('token');
  const rest = params.toString();
  const cleanSearch = rest ? `?${rest}` : '';
  if (fromUrl) {
    try {
      place.storage.setItem(screenTokenKey(bucketId), fromUrl);
    } catch {
      // Storage refused (private mode, quota): the token still serves this visit.
    }
    return { token: fromUrl, cleanSearch };
  }
  return { token: readStored(place.storage, screenTokenKey(bucketId)), cleanSearch };
}

function readStored(storage: TokenPlace['storage'], key: string): string | null {
  try {
    return storage.getItem(key) || null;
  } catch {
    return null;
  }
}

/** Forgets a refused token (revoked): the next visit needs a new address. */
export function forgetScreenToken(bucketId: string, storage: Pick<Storage, 'removeItem'>): void {
  try {
    storage.removeItem(screenTokenKey(bucketId));
  } catch {
    // nothing stored
  }
}

/** The address a screen opens with: what the settings show once after issuing a token. */
export function screenUrl(origin: string, bucketId: string, token: string): string {
  return `${origin}/calling/${encodeURIComponent(bucketId)}/screen-show?token=${encodeURIComponent(token)}`;
}
