/**
 * Content negotiation of DICOMweb answers (PS3.18 8.7): a request whose Accept header names only
 * types the server cannot produce is answered 406, not with another type it did not ask for.
 */

/** A type an answer can be given in: a media type and, for multipart/related, its parts' type. */
export interface Offer {
  type: string;
  partType?: string;
}

export const JSON_OFFERS: readonly Offer[] = [{ type: 'application/dicom+json' }, { type: 'application/json' }];
export const DICOM_OFFERS: readonly Offer[] = [{ type: 'multipart/related', partType: 'application/dicom' }];
export const OCTET_OFFERS: readonly Offer[] = [{ type: 'multipart/related', partType: 'application/octet-stream' }];

interface Range {
  type: string;
  params: Map<string, string>;
  q: number;
}

function ranges(accept: string): Range[] {
  const out: Range[] = [];
  for (const item of accept.split(',')) {
    const [essence, ...rest] = item.split(';');
    const type = essence!.trim().toLowerCase();
    if (!type) continue;
    const params = new Map<string, string>();
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      params.set(
        p.slice(0, eq).trim().toLowerCase(),
        p
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1')
          .toLowerCase(),
      );
    }
    const q = params.has('q') ? Number(params.get('q')) : 1;
    out.push({ type, params, q: Number.isFinite(q) ? q : 1 });
  }
  return out;
}

function matches(range: Range, offer: Offer): boolean {
  if (range.q <= 0) return false;
  if (range.type === '*/*') return true;
  if (range.type.endsWith('/*')) return offer.type.startsWith(range.type.slice(0, -1));
  if (range.type !== offer.type) return false;
  // multipart/related without a type parameter means the resource's default part type.
  const partType = range.params.get('type');
  return partType === undefined || partType === '*/*' || partType === offer.partType;
}

/** Whether an answer in one of `offers` is acceptable to a request with this Accept header. */
export function acceptable(accept: string | undefined, offers: readonly Offer[]): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  const list = ranges(accept);
  return list.length === 0 || list.some((r) => offers.some((o) => matches(r, o)));
}

/**
 * The answer types of a DICOMweb route (its path pattern and method): searches, metadata and
 * STOW-RS answers are DICOM JSON; frames and bulk data multipart octet-streams; the rest instances.
 */
export function offersFor(method: string, url: string): readonly Offer[] {
  if (method === 'POST' || url.endsWith('/metadata')) return JSON_OFFERS;
  if (url.includes('/frames/') || url.includes('/bulkdata/')) return OCTET_OFFERS;
  // The search resources end in a collection's name; a series ends in its :series parameter.
  if (/\/(studies|series|instances)$/.test(url)) return JSON_OFFERS;
  return DICOM_OFFERS;
}
