import dicomParser from 'dicom-parser';

/** Transfer syntaxes whose frames are the stored bytes as they are: native little endian. */
const NATIVE_LITTLE_ENDIAN = new Set(['1.2.840.10008.1.2', '1.2.840.10008.1.2.1']);

/**
 * Where the frames of a stored instance lie in its file, when they can be read in place: native
 * (uncompressed) little-endian pixel data of whole bytes per sample. Frame n (1-based) is the
 * `frameLength` bytes at `offset + (n - 1) * frameLength`.
 */
export interface FrameLayout {
  offset: number;
  frameLength: number;
  frames: number;
  transferSyntaxUid: string;
}

/**
 * The frame layout of a Part 10 file (its whole bytes, or at least everything up to the pixel
 * data's value), or null when its frames cannot be served as a byte range of the file:
 * encapsulated (compressed) pixel data, big endian (served converted), deflated, packed bits, no
 * pixel data, or a pixel data value shorter than its frames. Those are served by frameBytes from
 * the whole file.
 */
export function nativeFrameLayout(file: Uint8Array): FrameLayout | null {
  let ds: dicomParser.DataSet;
  try {
    ds = dicomParser.parseDicom(file, { untilTag: 'x7fe00010' });
  } catch {
    return null;
  }
  const transferSyntaxUid = ds.string('x00020010') ?? '1.2.840.10008.1.2';
  const pixel = ds.elements.x7fe00010;
  if (!NATIVE_LITTLE_ENDIAN.has(transferSyntaxUid) || !pixel || pixel.hadUndefinedLength) return null;
  const rows = ds.uint16('x00280010') ?? 0;
  const columns = ds.uint16('x00280011') ?? 0;
  const samples = ds.uint16('x00280002') ?? 1;
  const bits = ds.uint16('x00280100') ?? 16;
  const frames = Number.parseInt(ds.string('x00280008') ?? '1', 10) || 1;
  const frameLength = (rows * columns * samples * bits) / 8;
  if (bits % 8 !== 0 || frameLength <= 0 || frames < 1 || frames * frameLength > pixel.length) return null;
  return { offset: pixel.dataOffset, frameLength, frames, transferSyntaxUid };
}

/** The byte range [start, end) of frame n (1-based) in its file, or a RangeError past the last frame. */
export function frameRange(layout: FrameLayout, n: number): { start: number; end: number } {
  if (!Number.isInteger(n) || n < 1 || n > layout.frames) throw new RangeError(`frame ${n} of ${layout.frames}`);
  const start = layout.offset + (n - 1) * layout.frameLength;
  return { start, end: start + layout.frameLength };
}
