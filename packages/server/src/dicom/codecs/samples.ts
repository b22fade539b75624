/**
 * Samples of a frame between their byte form (little endian, as codecs and native pixel data
 * carry them) and typed arrays, with the stored bits made exact (PS3.5 8.1.1): unsigned samples
 * keep only their Bits Stored low bits, signed ones are sign-extended from Bits Stored.
 */
import { CodecError } from './errors.js';

export type Samples = Uint8Array | Uint16Array | Int16Array;

export function bytesPerSample(bitsAllocated: number): 1 | 2 {
  if (bitsAllocated === 8) return 1;
  if (bitsAllocated === 16) return 2;
  throw new CodecError(`Bits Allocated ${bitsAllocated} is not decoded (8 or 16)`, 'unsupported-pixels');
}

/**
 * Typed samples of little-endian bytes (a copy, aligned), `bitsStored` exact. 16-bit samples are
 * Int16Array when signed, else Uint16Array; 8-bit ones Uint8Array either way.
 */
export function typedSamples(
  bytes: Uint8Array,
  bitsAllocated: number,
  bitsStored: number,
  pixelRepresentation: number,
  count: number,
): Samples {
  const size = bytesPerSample(bitsAllocated);
  if (bytes.length < count * size) {
    throw new CodecError(`the frame holds ${bytes.length} bytes, ${count * size} expected`, 'corrupt');
  }
  const copy = new Uint8Array(count * size);
  copy.set(bytes.subarray(0, count * size));
  const stored = Math.min(Math.max(bitsStored, 1), bitsAllocated);
  if (size === 1) {
    if (stored < 8) {
      const mask = (1 << stored) - 1;
      for (let i = 0; i < count; i++) copy[i] = copy[i]! & mask;
    }
    return copy;
  }
  if (pixelRepresentation === 1) {
    const out = new Int16Array(copy.buffer);
    if (stored < 16) {
      const shift = 32 - stored;
      for (let i = 0; i < count; i++) out[i] = (out[i]! << shift) >> shift;
    }
    return out;
  }
  const out = new Uint16Array(copy.buffer);
  if (stored < 16) {
    const mask = (1 << stored) - 1;
    for (let i = 0; i < count; i++) out[i] = out[i]! & mask;
  }
  return out;
}

/** The little-endian bytes of samples (a view; this host is little endian as the test data assumes). */
export function sampleBytes(samples: Samples): Uint8Array {
  return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
}

/**
 * Samples reduced to their Bits Stored low bits as unsigned values (a copy for signed ones): what
 * JPEG-LS, JPEG lossless and RLE code, which know no sign.
 */
export function storedBits(samples: Samples, bitsStored: number): Uint8Array {
  if (!(samples instanceof Int16Array) || bitsStored >= 16) return sampleBytes(samples);
  const mask = (1 << bitsStored) - 1;
  const out = new Uint16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i]! & mask;
  return sampleBytes(out);
}

/** Planar bytes (all of sample 0, then 1, …) interleaved pixel by pixel. */
export function interleave(planar: Uint8Array, pixels: number, samplesPerPixel: number, size: number): Uint8Array {
  const out = new Uint8Array(pixels * samplesPerPixel * size);
  for (let s = 0; s < samplesPerPixel; s++) {
    for (let p = 0; p < pixels; p++) {
      const from = (s * pixels + p) * size;
      const to = (p * samplesPerPixel + s) * size;
      for (let b = 0; b < size; b++) out[to + b] = planar[from + b]!;
    }
  }
  return out;
}

/** Interleaved 8-bit YCbCr (YBR_FULL, PS3.3 C.7.6.3.1.2) as RGB, in place. */
export function ybrFullToRgb(samples: Uint8Array): Uint8Array {
  const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
  for (let i = 0; i + 2 < samples.length; i += 3) {
    const y = samples[i]!;
    const cb = samples[i + 1]! - 128;
    const cr = samples[i + 2]! - 128;
    samples[i] = clamp(y + 1.402 * cr);
    samples[i + 1] = clamp(y - 0.344136 * cb - 0.714136 * cr);
    samples[i + 2] = clamp(y + 1.772 * cb);
  }
  return samples;
}
