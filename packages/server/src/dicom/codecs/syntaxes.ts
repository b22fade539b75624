/**
 * The transfer syntaxes the codecs know (PS3.5 Annex A, PS3.6 Annex A) and the media type a
 * frame of each is served as (PS3.18 8.7.3.3.2, Table 8.7.3-2).
 */
export const TS = {
  implicitLittle: '1.2.840.10008.1.2',
  explicitLittle: '1.2.840.10008.1.2.1',
  deflated: '1.2.840.10008.1.2.1.99',
  explicitBig: '1.2.840.10008.1.2.2',
  jpegBaseline: '1.2.840.10008.1.2.4.50',
  jpegExtended: '1.2.840.10008.1.2.4.51',
  jpegLossless: '1.2.840.10008.1.2.4.57',
  jpegLosslessSV1: '1.2.840.10008.1.2.4.70',
  jpegLsLossless: '1.2.840.10008.1.2.4.80',
  jpegLsNearLossless: '1.2.840.10008.1.2.4.81',
  j2kLossless: '1.2.840.10008.1.2.4.90',
  j2k: '1.2.840.10008.1.2.4.91',
  htj2kLossless: '1.2.840.10008.1.2.4.201',
  htj2kLosslessRpcl: '1.2.840.10008.1.2.4.202',
  htj2k: '1.2.840.10008.1.2.4.203',
  rle: '1.2.840.10008.1.2.5',
} as const;

/** Syntaxes whose pixel data is native (not encapsulated); a deflated file's frames are native once inflated. */
export const NATIVE_SYNTAXES: ReadonlySet<string> = new Set([
  TS.implicitLittle,
  TS.explicitLittle,
  TS.deflated,
  TS.explicitBig,
]);

/** The media type of a single frame in each syntax (PS3.18 Table 8.7.3-2). */
const FRAME_MEDIA_TYPES: Readonly<Record<string, string>> = {
  [TS.jpegBaseline]: 'image/jpeg',
  [TS.jpegExtended]: 'image/jpeg',
  [TS.jpegLossless]: 'image/jpeg',
  [TS.jpegLosslessSV1]: 'image/jpeg',
  [TS.jpegLsLossless]: 'image/jls',
  [TS.jpegLsNearLossless]: 'image/jls',
  [TS.j2kLossless]: 'image/jp2',
  [TS.j2k]: 'image/jp2',
  [TS.htj2kLossless]: 'image/jphc',
  [TS.htj2kLosslessRpcl]: 'image/jphc',
  [TS.htj2k]: 'image/jphc',
  [TS.rle]: 'image/dicom-rle',
};

/** The media type a frame in this syntax is served as: application/octet-stream for native ones. */
export function frameMediaType(transferSyntaxUid: string): string {
  return FRAME_MEDIA_TYPES[transferSyntaxUid] ?? 'application/octet-stream';
}

/**
 * The syntaxes a frame media type may carry (PS3.18 Table 8.7.3-2), the default first; an unknown
 * type none.
 */
export function syntaxesOfMediaType(mediaType: string): string[] {
  if (mediaType === 'application/octet-stream') return [TS.explicitLittle];
  const out = Object.entries(FRAME_MEDIA_TYPES)
    .filter(([, type]) => type === mediaType)
    .map(([ts]) => ts);
  // PS3.18 Table 8.7.3-2 names each image type's default syntax.
  const defaults: Record<string, string> = {
    'image/jpeg': TS.jpegLosslessSV1,
    'image/jls': TS.jpegLsLossless,
    'image/jp2': TS.j2kLossless,
    'image/jphc': TS.htj2kLossless,
  };
  const first = defaults[mediaType];
  return first ? [first, ...out.filter((ts) => ts !== first)] : out;
}

/**
 * Syntaxes the encoders here write lossily: an instance transcoded into one is marked lossy (PS3.3
 * C.7.6.1.1.5). JPEG 2000 (.4.91) and HTJ2K (.4.203) allow lossless coding and are written
 * reversibly, so they are not among them.
 */
export const LOSSY_OUTPUT: ReadonlySet<string> = new Set([TS.jpegBaseline, TS.jpegLsNearLossless]);

/** The Lossy Image Compression Method (0028,2114) of a lossy syntax (PS3.3 C.7.6.1.1.5.1). */
export function lossyMethod(transferSyntaxUid: string): string | undefined {
  switch (transferSyntaxUid) {
    case TS.jpegBaseline:
    case TS.jpegExtended:
      return 'ISO_10918_1';
    case TS.jpegLsNearLossless:
      return 'ISO_14495_1';
    default:
      return undefined;
  }
}
