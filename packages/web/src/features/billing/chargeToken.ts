/**
 * The public payment page's credential (spec 001 §9 "charge token (session storage)"): charge/apply-charge
 * answers a token bound to one charge; the page /charge/{id} receives it once in its address
 * (`?token=`), keeps it in this tab's session storage per charge and takes it out of the address bar,
 * so a reload keeps working and the token does not linger on show or in the history.
 */

export const CHARGE_TOKEN_PREFIX = 'yyp.chargeToken.';

export function chargeTokenKey(chargeId: string): string {
  return `${CHARGE_TOKEN_PREFIX}${chargeId}`;
}

type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The token of `chargeId`: the address's `token` (stored), else the stored one; and the search without it. */
export function takeChargeToken(
  chargeId: string,
  search: string,
  storage: TokenStorage,
): { token: string | null; cleanSearch: string } {
  const params = new URLSearchParams(search);
  const fromUrl = params.get('token')?.trim();
  params.delete('token');
  const rest = params.toString();
  const cleanSearch = rest ? `?${rest}` : '';
  if (fromUrl) {
    storeChargeToken(chargeId, fromUrl, storage);
    return { token: fromUrl, cleanSearch };
  }
  try {
    return { token: storage.getItem(chargeTokenKey(chargeId)) || null, cleanSearch };
  } catch {
    return { token: null, cleanSearch };
  }
}

/** Keeps a token the signed-in payer received from charge/apply-charge, for the page it opens next. */
export function storeChargeToken(chargeId: string, token: string, storage: TokenStorage): void {
  try {
    storage.setItem(chargeTokenKey(chargeId), token);
  } catch {
    // Storage refused (private mode, quota): the token still serves this visit.
  }
}

/** Forgets the token once the charge is settled or refused. */
export function forgetChargeToken(chargeId: string, storage: TokenStorage): void {
  try {
    storage.removeItem(chargeTokenKey(chargeId));
  } catch {
    // nothing stored
  }
}

/** The payment page's address for a charge (what the apply page opens, or a payer is sent). */
export function chargePagePath(chargeId: string, token?: string): string {
  const path = `/charge/${encodeURIComponent(chargeId)}`;
  return token ? `${path}?token=${encodeURIComponent(token)}` : path;
}

/**
 * The charges whose tokens this tab keeps (the public apply-report page looks for its order's
 * charge among them: a token is asked about only with the server, never shown).
 */
export function storedChargeTokens(
  storage: Pick<Storage, 'length' | 'key' | 'getItem'>,
): { chargeId: string; token: string }[] {
  const found: { chargeId: string; token: string }[] = [];
  try {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      const token = key?.startsWith(CHARGE_TOKEN_PREFIX) ? storage.getItem(key) : null;
      if (key && token) found.push({ chargeId: key.slice(CHARGE_TOKEN_PREFIX.length), token });
    }
  } catch {
    // Storage refused: no token kept.
  }
  return found;
}
