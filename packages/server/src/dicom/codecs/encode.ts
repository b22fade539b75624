/**
 * Encoding a decoded frame in another transfer syntax (issue 28 item 7): native little endian
 * always, RLE (rle.ts), JPEG-LS (CharLS), JPEG 2000 (OpenJPEG) and HTJ2K (OpenJPH) for 8- and
 * 16-bit samples, JPEG baseline (libjpeg-turbo) for 8-bit ones; and the baseline JPEG of a
 * rendered image. JPEG 2000 (.4.91) and HTJ2K (.4.203) are written reversibly.
 */
import type { DecodedFrame, PixelDescription } from './decode.js';
import { CodecError } from './errors.js';
import { encodeRle } from './rle.js';
import { bytesPerSample, sampleBytes, storedBits, ybrFullToRgb } from './samples.js';
import { TS } from './syntaxes.js';
import { charls, libjpegTurbo, openjpeg, openjph, runEncoder, type FrameInfo } from './wasm.js';

/** libjpeg-turbo's chroma subsampling codes (TJSAMP_*). */
const SUBSAMPLING_422 = 1;
const SUBSAMPLING_420 = 2;
/** OpenJPH's progression order code of RPCL (.4.202 requires it). */
const RPCL = 2;
/** The quality of JPEG baseline frames (1–100): visually lossless for diagnostic review. */
const JPEG_QUALITY = 90;
/** JPEG-LS near-lossless error bound written for .4.81. */
const NEAR = 2;
/** CharLS's interleave mode of samples interleaved pixel by pixel (ILV=2). */
const INTERLEAVE_SAMPLE = 2;

const WASM_ENCODED: ReadonlySet<string> = new Set([
  TS.jpegLsLossless,
  TS.jpegLsNearLossless,
  TS.j2kLossless,
  TS.j2k,
  TS.htj2kLossless,
  TS.htj2kLosslessRpcl,
  TS.htj2k,
]);

/** Whether frames of some pixels can be written in this syntax (canEncode decides for given pixels). */
export function encodesSyntax(transferSyntaxUid: string): boolean {
  return (
    WASM_ENCODED.has(transferSyntaxUid) ||
    [TS.explicitLittle, TS.implicitLittle, TS.rle, TS.jpegBaseline].includes(transferSyntaxUid as never)
  );
}

const sizesOk = (p: PixelDescription) =>
  (p.bitsAllocated === 8 || p.bitsAllocated === 16) && p.bitsStored >= 2 && p.bitsStored <= p.bitsAllocated;

/** Whether a frame of these pixels can be written in this syntax. */
export function canEncode(transferSyntaxUid: string, pixel: PixelDescription): boolean {
  if (!sizesOk(pixel) || (pixel.samplesPerPixel !== 1 && pixel.samplesPerPixel !== 3)) return false;
  switch (transferSyntaxUid) {
    case TS.explicitLittle:
    case TS.implicitLittle:
      return true;
    case TS.rle:
      return pixel.samplesPerPixel * bytesPerSample(pixel.bitsAllocated) <= 15;
    case TS.jpegBaseline:
      // 8-bit unsigned, greyscale or colour; never a palette (its indices would be blurred).
      return (
        pixel.bitsAllocated === 8 &&
        pixel.pixelRepresentation === 0 &&
        !pixel.photometricInterpretation.startsWith('PALETTE')
      );
    default:
      if (!WASM_ENCODED.has(transferSyntaxUid)) return false;
      // Lossy coding of palette indices is meaningless; JPEG-LS near-lossless is lossy.
      return !(transferSyntaxUid === TS.jpegLsNearLossless && pixel.photometricInterpretation.startsWith('PALETTE'));
  }
}

function frameInfo(pixel: PixelDescription, frame: DecodedFrame, bits: number, signed: boolean): FrameInfo {
  return {
    width: pixel.columns,
    height: pixel.rows,
    bitsPerSample: bits,
    componentCount: frame.samplesPerPixel,
    isSigned: signed,
    isUsingColorTransform: false,
  };
}

/** Wavelet levels of a JPEG 2000 frame: the codecs' 5, fewer for an image too small to halve 5 times. */
function decompositions(p: PixelDescription): number {
  return Math.max(0, Math.min(5, Math.floor(Math.log2(Math.min(p.rows, p.columns)))));
}

/**
 * Encodes a decoded frame in `transferSyntaxUid` (canEncode must hold): the frame's bytes, for
 * native syntaxes little endian samples interleaved. encodedPhotometric says what the frame's
 * Photometric Interpretation becomes.
 */
export async function encodeFrame(frame: DecodedFrame, pixel: PixelDescription, ts: string): Promise<Uint8Array> {
  try {
    return await encode(frame, pixel, ts);
  } catch (err) {
    if (err instanceof CodecError) throw err;
    // The WASM codecs throw numbers (C++ exceptions) or strings.
    const message = err instanceof Error ? err.message : String(err);
    throw new CodecError(`the frame cannot be encoded as ${ts}: ${message}`, 'unsupported-pixels');
  }
}

async function encode(frame: DecodedFrame, pixel: PixelDescription, ts: string): Promise<Uint8Array> {
  if (!canEncode(ts, pixel)) {
    throw new CodecError(`a frame of these pixels cannot be written as ${ts}`, 'unsupported-syntax');
  }
  const pixels = pixel.rows * pixel.columns;
  const size = bytesPerSample(pixel.bitsAllocated);
  if (frame.pixels.length !== pixels * frame.samplesPerPixel) {
    throw new CodecError(
      `the frame holds ${frame.pixels.length} samples, the pixels ${pixels * frame.samplesPerPixel}`,
      'corrupt',
    );
  }
  switch (ts) {
    case TS.explicitLittle:
    case TS.implicitLittle:
      return sampleBytes(frame.pixels);
    case TS.rle:
      return encodeRle(sampleBytes(frame.pixels), pixels, frame.samplesPerPixel, size);
    case TS.jpegBaseline: {
      const samples = sampleBytes(frame.pixels).slice();
      if (frame.samplesPerPixel === 3 && frame.photometricInterpretation === 'YBR_FULL') ybrFullToRgb(samples);
      return runEncoder((await libjpegTurbo()).Encoder, frameInfo(pixel, frame, 8, false), samples, (e) => {
        e.setProgressive(0);
        e.setQuality(JPEG_QUALITY);
        e.setSubSampling(SUBSAMPLING_422);
      });
    }
    case TS.jpegLsLossless:
    case TS.jpegLsNearLossless: {
      const info = frameInfo(pixel, frame, pixel.bitsStored, false);
      return runEncoder((await charls()).Encoder, info, storedBits(frame.pixels, pixel.bitsStored), (e) => {
        e.setNearLossless(ts === TS.jpegLsNearLossless ? NEAR : 0);
        // The samples are interleaved pixel by pixel: CharLS's default (none) would take them as planes.
        if (frame.samplesPerPixel > 1) e.setInterleaveMode(INTERLEAVE_SAMPLE);
      });
    }
    case TS.j2kLossless:
    case TS.j2k: {
      const info = frameInfo(pixel, frame, pixel.bitsStored, frame.pixels instanceof Int16Array);
      return runEncoder((await openjpeg()).Encoder, info, sampleBytes(frame.pixels), (e) =>
        e.setDecompositions(decompositions(pixel)),
      );
    }
    default: {
      const info = frameInfo(pixel, frame, pixel.bitsStored, frame.pixels instanceof Int16Array);
      return runEncoder((await openjph()).Encoder, info, sampleBytes(frame.pixels), (e) => {
        e.setDecompositions(decompositions(pixel));
        if (ts === TS.htj2kLosslessRpcl) e.setProgressionOrder(RPCL);
      });
    }
  }
}

/** The multiple component transform flag of a J2K codestream's COD marker, or false when it has none. */
function j2kUsesMct(encoded: Uint8Array): boolean {
  // Main header markers after SOC (FF4F): each FFxx with a 16-bit length; COD is FF52.
  let at = 2;
  while (at + 4 <= encoded.length && encoded[at] === 0xff) {
    const marker = encoded[at + 1]!;
    const length = (encoded[at + 2]! << 8) | encoded[at + 3]!;
    if (marker === 0x52) return encoded[at + 4 + 4] === 1; // Scod, progression, 2 bytes layers, then MCT
    if (marker === 0x90) break; // SOT: the main header is over
    at += 2 + length;
  }
  return false;
}

/** The Photometric Interpretation of a frame encoded by encodeFrame in `ts`. */
export function encodedPhotometric(frame: DecodedFrame, ts: string, encoded: Uint8Array): string {
  if (frame.samplesPerPixel !== 3) return frame.photometricInterpretation;
  if (ts === TS.jpegBaseline) return 'YBR_FULL_422';
  const j2k =
    ts === TS.j2kLossless || ts === TS.j2k || ts === TS.htj2kLossless || ts === TS.htj2kLosslessRpcl || ts === TS.htj2k;
  if (j2k && frame.photometricInterpretation === 'RGB' && j2kUsesMct(encoded)) return 'YBR_RCT';
  return frame.photometricInterpretation;
}

/**
 * A baseline JPEG of a rendered image (libjpeg-turbo): greyscale bytes (components 1) or colour
 * (components 3) given as RGB or RGBA bytes (the alpha dropped), quality 1–100.
 */
export async function encodeJpegImage(
  rgbaOrGray: Uint8Array,
  width: number,
  height: number,
  components: 1 | 3,
  quality: number,
): Promise<Uint8Array> {
  const pixels = width * height;
  let samples = rgbaOrGray;
  if (components === 3 && rgbaOrGray.length === pixels * 4) {
    samples = new Uint8Array(pixels * 3);
    for (let p = 0; p < pixels; p++) {
      samples[p * 3] = rgbaOrGray[p * 4]!;
      samples[p * 3 + 1] = rgbaOrGray[p * 4 + 1]!;
      samples[p * 3 + 2] = rgbaOrGray[p * 4 + 2]!;
    }
  }
  if (width < 1 || height < 1 || samples.length !== pixels * components) {
    throw new CodecError(
      `an image of ${width}×${height}×${components} needs ${pixels * components} bytes`,
      'unsupported-pixels',
    );
  }
  const info: FrameInfo = { width, height, bitsPerSample: 8, componentCount: components, isSigned: false };
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const { Encoder } = await libjpegTurbo();
  try {
    return runEncoder(Encoder, info, samples, (e) => {
      e.setProgressive(0);
      e.setQuality(q);
      e.setSubSampling(SUBSAMPLING_420);
    });
  } catch (err) {
    throw new CodecError(`the image cannot be encoded as JPEG: ${String(err)}`, 'unsupported-pixels');
  }
}
