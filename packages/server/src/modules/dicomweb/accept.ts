/**
 * Content negotiation of DICOMweb answers (PS3.18 8.7): a request whose Accept header names only
 * types the server cannot produce is answered 406, not with another type it did not ask for. The
 * transfer-syntax parameter of a multipart/related range picks the syntax of instances and frames
 * (PS3.18 8.7.3.5): as stored ("*"), or one the codecs can produce (dicom/codecs).
 */
import { frameMediaType, NATIVE_SYNTAXES, syntaxesOfMediaType } from '../../dicom/codecs/index.js';

/** A type an answer can be given in: a media type and, for multipart/related, its parts' type. */
export interface Offer {
  type: string;
  partType?: string;
}

export const JSON_OFFERS: readonly Offer[] = [{ type: 'application/dicom+json' }, { type: 'application/json' }];
export const DICOM_OFFERS: readonly Offer[] = [{ type: 'multipart/related', partType: 'application/dicom' }];
export const OCTET_OFFERS: readonly Offer[] = [{ type: 'multipart/related', partType: 'application/octet-stream' }];
/** Frames: octet-streams, or the media type of a compressed frame (PS3.18 Table 8.7.3-2). */
export const FRAME_OFFERS: readonly Offer[] = [
  ...OCTET_OFFERS,
  ...['image/jpeg', 'image/jls', 'image/jp2', 'image/jphc', 'image/dicom-rle'].map((partType) => ({
    type: 'multipart/related',
    partType,
  })),
];
export const IMAGE_OFFERS: readonly Offer[] = [{ type: 'image/jpeg' }, { type: 'image/png' }];

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
 * STOW-RS answers are DICOM JSON; rendered images and thumbnails image/jpeg or image/png; frames
 * and bulk data multipart octet-streams; the rest instances.
 */
export function offersFor(method: string, url: string): readonly Offer[] {
  if (method === 'POST' || url.endsWith('/metadata')) return JSON_OFFERS;
  if (url.endsWith('/rendered') || url.endsWith('/thumbnail')) return IMAGE_OFFERS;
  if (url.includes('/frames/')) return FRAME_OFFERS;
  if (url.includes('/bulkdata/')) return OCTET_OFFERS;
  // The search resources end in a collection's name; a series ends in its :series parameter.
  if (/\/(studies|series|instances)$/.test(url)) return JSON_OFFERS;
  return DICOM_OFFERS;
}

/**
 * What a multipart/related range asks of the parts: their media type (undefined: any) and transfer
 * syntax (undefined: none named, "*": as stored).
 */
export interface WantedPart {
  partType?: string;
  transferSyntax?: string;
}

/** The ranges of an Accept header that parts can answer, best (highest q) first; no Accept takes anything. */
export function wantedParts(accept: string | undefined): WantedPart[] {
  if (accept === undefined || accept.trim() === '') return [{}];
  const out: WantedPart[] = [];
  for (const r of ranges(accept)
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q)) {
    if (r.type === '*/*' || r.type === 'multipart/*') out.push({});
    else if (r.type === 'multipart/related') {
      const partType = r.params.get('type');
      const transferSyntax = r.params.get('transfer-syntax');
      out.push({
        ...(partType && partType !== '*/*' ? { partType } : {}),
        ...(transferSyntax ? { transferSyntax } : {}),
      });
    }
  }
  return out;
}

/**
 * The syntax instances are answered in: "*" for as stored (no transfer-syntax named, or "*"), a
 * syntax `produces` holds for, or undefined when the request names none it can have (406).
 */
export function instanceSyntax(wanted: readonly WantedPart[], produces: (ts: string) => boolean): string | undefined {
  for (const w of wanted) {
    if (w.partType !== undefined && w.partType !== 'application/dicom') continue;
    if (w.transferSyntax === undefined || w.transferSyntax === '*') return '*';
    if (produces(w.transferSyntax)) return w.transferSyntax;
  }
  return undefined;
}

/** The syntax and media type frames are answered in. */
export interface FrameAnswer {
  transferSyntax: string;
  mediaType: string;
}

/**
 * The answer to a frames request whose frames are stored in `stored` (native ones: explicit VR
 * little endian), or undefined when no range can be met (406). Without a part type a frame is
 * labelled with its real media type; application/octet-stream without a transfer-syntax, or with
 * "*", answers the frames as stored under that label, as before transcoding existed and as the
 * viewers ask (transfer-syntax=* and the part's transfer-syntax parameter say what they hold); an
 * image type answers the stored syntax when it is one of that type's, else the first of them
 * (its default first, PS3.18 Table 8.7.3-2) that `produces` holds for.
 */
export function frameAnswer(
  stored: string,
  wanted: readonly WantedPart[],
  produces: (ts: string) => boolean,
): FrameAnswer | undefined {
  const can = (ts: string) => ts === stored || produces(ts);
  for (const w of wanted) {
    const ts = w.transferSyntax;
    if (w.partType === undefined) {
      if (ts === undefined || ts === '*') return { transferSyntax: stored, mediaType: frameMediaType(stored) };
      if (can(ts)) return { transferSyntax: ts, mediaType: frameMediaType(ts) };
      continue;
    }
    if (w.partType === 'application/octet-stream') {
      if (ts === undefined || ts === '*') return { transferSyntax: stored, mediaType: w.partType };
      if (NATIVE_SYNTAXES.has(ts) && can(ts)) return { transferSyntax: ts, mediaType: w.partType };
      continue;
    }
    const allowed = syntaxesOfMediaType(w.partType);
    const candidates =
      ts === undefined || ts === '*' ? [...(allowed.includes(stored) ? [stored] : []), ...allowed] : [ts];
    const found = candidates.find((c) => allowed.includes(c) && can(c));
    if (found) return { transferSyntax: found, mediaType: w.partType };
  }
  return undefined;
}

/**
 * Whether bulk data (answered as little-endian octet-streams, encapsulated Pixel Data decoded) meets
 * one of the ranges: one naming no transfer syntax, "*", or explicit VR little endian.
 */
export function bulkDataAcceptable(wanted: readonly WantedPart[]): boolean {
  return wanted.some(
    (w) =>
      (w.partType === undefined || w.partType === 'application/octet-stream') &&
      (w.transferSyntax === undefined || w.transferSyntax === '*' || w.transferSyntax === '1.2.840.10008.1.2.1'),
  );
}
