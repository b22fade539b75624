/**
 * Decoding one frame of any transfer syntax the archive stores into interleaved samples (issue 28
 * items 6 and 7): native pixel data (big endian swapped, planar interleaved), RLE (rle.ts), and
 * the WASM codecs (wasm.ts) for JPEG, JPEG-LS, JPEG 2000 and HTJ2K; JPEG lossless (process 14) by
 * jpeg-lossless-decoder-js, which libjpeg-turbo's 8-bit build does not read.
 */
import { Decoder as JpegLosslessDecoder } from '@cornerstonejs/jpeg-lossless-decoder-js';
import { CodecError } from './errors.js';
import { decodeRle } from './rle.js';
import { bytesPerSample, interleave, typedSamples, type Samples } from './samples.js';
import { NATIVE_SYNTAXES, TS } from './syntaxes.js';
import { charls, libjpegTurbo, openjpeg, openjph, runDecoder, type FrameInfo } from './wasm.js';

export interface PixelDescription {
  rows: number;
  columns: number;
  bitsAllocated: number;
  bitsStored: number;
  pixelRepresentation: number;
  samplesPerPixel: number;
  photometricInterpretation: string;
  planarConfiguration: number;
}

export interface DecodedFrame {
  /** Samples interleaved (Planar Configuration 0), Bits Stored exact (samples.ts). */
  pixels: Samples;
  /** After decoding: a JPEG baseline YBR_FULL_422 frame or a JPEG 2000 YBR_RCT/YBR_ICT one comes back RGB. */
  photometricInterpretation: string;
  samplesPerPixel: number;
  bitsAllocated: number;
  pixelRepresentation: number;
}

const DECODABLE: ReadonlySet<string> = new Set([
  ...NATIVE_SYNTAXES,
  TS.rle,
  TS.jpegBaseline,
  TS.jpegExtended,
  TS.jpegLossless,
  TS.jpegLosslessSV1,
  TS.jpegLsLossless,
  TS.jpegLsNearLossless,
  TS.j2kLossless,
  TS.j2k,
  TS.htj2kLossless,
  TS.htj2kLosslessRpcl,
  TS.htj2k,
]);

export function canDecode(transferSyntaxUid: string): boolean {
  return DECODABLE.has(transferSyntaxUid);
}

/** Each `size`-byte word of big-endian bytes swapped (a copy). */
function swapped(bytes: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(bytes.length);
  if (size === 1) {
    out.set(bytes);
    return out;
  }
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    out[i] = bytes[i + 1]!;
    out[i + 1] = bytes[i]!;
  }
  return out;
}

/** 8-bit samples widened to 16 bits (a codec's output when Bits Allocated is 16 and the stream 8-bit). */
function widened(bytes: Uint8Array): Uint8Array {
  const out = new Uint16Array(bytes.length);
  out.set(bytes);
  return new Uint8Array(out.buffer);
}

/** The J2K codestream of a frame: the contents of a JP2 file's jp2c box when the frame is one (some encoders write it so). */
function codestream(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 12 || bytes[4] !== 0x6a || bytes[5] !== 0x50) return bytes; // not "jP  "
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at + 8 <= bytes.length) {
    let length = view.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
    let header = 8;
    if (length === 1 && at + 16 <= bytes.length) {
      length = Number(view.getBigUint64(at + 8));
      header = 16;
    }
    if (length === 0) length = bytes.length - at;
    if (type === 'jp2c') return bytes.subarray(at + header, at + length);
    if (length < header) break;
    at += length;
  }
  throw new CodecError('JPEG 2000 frame: a JP2 file without its codestream', 'corrupt');
}

interface Raw {
  bytes: Uint8Array; // little endian, interleaved
  size: 1 | 2; // bytes per sample in `bytes`
  photometric: string;
}

function checkInfo(info: FrameInfo, pixel: PixelDescription, what: string): void {
  if (info.width !== pixel.columns || info.height !== pixel.rows || info.componentCount !== pixel.samplesPerPixel) {
    throw new CodecError(
      `${what} frame is ${info.width}×${info.height}×${info.componentCount}, ` +
        `the data set says ${pixel.columns}×${pixel.rows}×${pixel.samplesPerPixel}`,
      'corrupt',
    );
  }
}

const sizeOfBits = (bits: number): 1 | 2 => (bits <= 8 ? 1 : 2);

async function decodeRaw(bytes: Uint8Array, ts: string, pixel: PixelDescription): Promise<Raw> {
  const pixels = pixel.rows * pixel.columns;
  const spp = pixel.samplesPerPixel;
  const size = bytesPerSample(pixel.bitsAllocated);
  const photometric = pixel.photometricInterpretation;
  if (NATIVE_SYNTAXES.has(ts)) {
    if (photometric === 'YBR_FULL_422' || photometric === 'YBR_PARTIAL_422') {
      throw new CodecError(`native ${photometric} pixel data is not decoded`, 'unsupported-pixels');
    }
    const little = ts === TS.explicitBig ? swapped(bytes, size) : bytes;
    const planar = spp > 1 && pixel.planarConfiguration === 1;
    return { bytes: planar ? interleave(little, pixels, spp, size) : little, size, photometric };
  }
  if (ts === TS.rle) {
    // RLE segments are per sample: planar in the bit stream whatever Planar Configuration says (G.2).
    return { bytes: decodeRle(bytes, pixels, spp, size), size, photometric };
  }
  if (ts === TS.jpegLossless || ts === TS.jpegLosslessSV1) {
    const decoder = new JpegLosslessDecoder();
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const out = decoder.decode(buffer, 0, buffer.byteLength, size);
    const got = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    const outSize: 1 | 2 = out instanceof Uint16Array ? 2 : 1;
    if (decoder.frame.dimX !== pixel.columns || decoder.frame.dimY !== pixel.rows) {
      throw new CodecError('JPEG lossless frame size differs from the data set', 'corrupt');
    }
    return { bytes: got, size: outSize, photometric };
  }
  let decoded: ReturnType<typeof runDecoder>;
  let what: string;
  if (ts === TS.jpegBaseline || ts === TS.jpegExtended) {
    what = 'JPEG';
    decoded = runDecoder((await libjpegTurbo()).Decoder, bytes);
  } else if (ts === TS.jpegLsLossless || ts === TS.jpegLsNearLossless) {
    what = 'JPEG-LS';
    decoded = runDecoder((await charls()).Decoder, bytes);
  } else if (ts === TS.j2kLossless || ts === TS.j2k) {
    what = 'JPEG 2000';
    decoded = runDecoder((await openjpeg()).Decoder, codestream(bytes));
  } else if (ts === TS.htj2kLossless || ts === TS.htj2kLosslessRpcl || ts === TS.htj2k) {
    what = 'HTJ2K';
    decoded = runDecoder((await openjph()).Decoder, codestream(bytes));
  } else {
    throw new CodecError(`transfer syntax ${ts} is not decoded`, 'unsupported-syntax');
  }
  checkInfo(decoded.info, pixel, what);
  const outSize = sizeOfBits(decoded.info.bitsPerSample);
  let out = decoded.decoded;
  // CharLS answers a frame coded without interleaving (ILV none) plane by plane.
  if (decoded.interleaveMode === 0 && spp > 1) out = interleave(out, pixels, spp, outSize);
  let after = photometric;
  // libjpeg-turbo converts YCbCr to RGB; OpenJPEG and OpenJPH undo the component transforms.
  if (spp === 3 && what === 'JPEG') after = 'RGB';
  if (spp === 3 && (photometric === 'YBR_RCT' || photometric === 'YBR_ICT')) after = 'RGB';
  return { bytes: out, size: outSize, photometric: after };
}

/** Decodes one frame (its bytes as frameBytes cuts them: the whole bit stream of an encapsulated frame). */
export async function decodeFrame(bytes: Uint8Array, ts: string, pixel: PixelDescription): Promise<DecodedFrame> {
  if (!canDecode(ts)) throw new CodecError(`transfer syntax ${ts} is not decoded`, 'unsupported-syntax');
  if (pixel.rows < 1 || pixel.columns < 1 || pixel.samplesPerPixel < 1) {
    throw new CodecError('the data set names no image size', 'unsupported-pixels');
  }
  const size = bytesPerSample(pixel.bitsAllocated);
  let raw: Raw;
  try {
    raw = await decodeRaw(bytes, ts, pixel);
  } catch (err) {
    if (err instanceof CodecError) throw err;
    // The WASM codecs throw numbers or strings on a bit stream they cannot read.
    const message = err instanceof Error ? err.message : String(err);
    throw new CodecError(`the frame cannot be decoded (${ts}): ${message}`, 'corrupt');
  }
  let out = raw.bytes;
  if (raw.size === 1 && size === 2) out = widened(out);
  else if (raw.size === 2 && size === 1) {
    throw new CodecError(`the frame has more than 8 bits per sample, Bits Allocated is 8`, 'corrupt');
  }
  const count = pixel.rows * pixel.columns * pixel.samplesPerPixel;
  return {
    pixels: typedSamples(out, pixel.bitsAllocated, pixel.bitsStored, pixel.pixelRepresentation, count),
    photometricInterpretation: raw.photometric,
    samplesPerPixel: pixel.samplesPerPixel,
    bitsAllocated: pixel.bitsAllocated,
    pixelRepresentation: pixel.pixelRepresentation,
  };
}
