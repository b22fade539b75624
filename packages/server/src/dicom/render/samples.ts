import type { PixelModule } from './pixel-module.js';

/** Sample values of one frame, interleaved pixel by pixel, as integers of their stored bits. */
export type SampleValues = Uint8Array | Int8Array | Uint16Array | Int16Array | Int32Array | Float64Array;

/** Why a frame cannot be rendered: the route answers it as the spec says (never 500). */
export class RenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderError';
  }
}

/**
 * The sample values of a native frame (little-endian bytes, as frame-source and frameBytes serve
 * them), interleaved, each reduced to its Bits Stored bits below High Bit and sign-extended when
 * Pixel Representation is 1 (PS3.5 8.1.1, 8.2). Bits Allocated 1 (packed, first pixel in the
 * lowest bit), 8, 16 and 32 are read; planar configuration 1 is interleaved.
 */
export function nativeSamples(bytes: Uint8Array, m: PixelModule): SampleValues {
  const pixels = m.rows * m.columns;
  // YBR_FULL_422 native data holds two Y, one Cb, one Cr per pair of pixels (PS3.3 C.7.6.3.1.2).
  const count = m.photometricInterpretation === 'YBR_FULL_422' ? pixels * 2 : pixels * m.samplesPerPixel;
  const bits = m.bitsAllocated;
  if (bits !== 1 && bits !== 8 && bits !== 16 && bits !== 32) {
    throw new RenderError(`Bits Allocated ${bits} cannot be rendered`);
  }
  if (bytes.length < Math.ceil((count * bits) / 8)) {
    throw new RenderError(`the frame holds ${bytes.length} bytes, fewer than its ${count} samples need`);
  }
  const stored = Math.min(Math.max(m.bitsStored, 1), bits);
  const shift = bits === 1 ? 0 : Math.max(0, Math.min(m.highBit + 1 - stored, bits - stored));
  const signed = m.pixelRepresentation === 1 && bits !== 1;
  let out: SampleValues;
  if (bits === 8 || bits === 16) {
    // Whole bytes of at most 16 bits: integer shifts and masks over an aligned typed view.
    const raw = bits === 8 ? bytes.subarray(0, count) : aligned16(bytes, count);
    if (stored === bits && shift === 0) {
      // Every bit is a stored bit: the samples are the bytes themselves, read in place.
      out = !signed
        ? raw
        : bits === 8
          ? new Int8Array(raw.buffer, raw.byteOffset, count)
          : new Int16Array(raw.buffer, raw.byteOffset, count);
    } else {
      const mask = (1 << stored) - 1;
      const sign = signed ? 1 << (stored - 1) : 0;
      const span = 1 << stored;
      const values = signed ? new Int16Array(count) : bits === 8 ? new Uint8Array(count) : new Uint16Array(count);
      for (let i = 0; i < count; i++) {
        const value = (raw[i]! >> shift) & mask;
        values[i] = value & sign ? value - span : value;
      }
      out = values;
    }
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const values = bits === 32 ? new Float64Array(count) : new Int32Array(count);
    for (let i = 0; i < count; i++) {
      const raw = bits === 1 ? (bytes[i >> 3]! >> (i & 7)) & 1 : view.getUint32(4 * i, true);
      values[i] = exact(raw, shift, stored, signed);
    }
    out = values;
  }
  if (m.samplesPerPixel > 1 && m.planarConfiguration === 1 && m.photometricInterpretation !== 'YBR_FULL_422') {
    return interleaved(out, pixels, m.samplesPerPixel);
  }
  return out;
}

/** The first `count` 16-bit little-endian samples of `bytes` (copied when not 2-byte aligned; the host is little endian). */
function aligned16(bytes: Uint8Array, count: number): Uint16Array {
  if (bytes.byteOffset % 2 === 0) return new Uint16Array(bytes.buffer, bytes.byteOffset, count);
  const copy = new Uint8Array(count * 2);
  copy.set(bytes.subarray(0, count * 2));
  return new Uint16Array(copy.buffer);
}

/** One raw sample's stored bits (below High Bit), sign-extended when signed. */
export function exact(raw: number, shift: number, stored: number, signed: boolean): number {
  // Division, not >>: 32-bit samples do not fit JavaScript's signed shifts.
  const value = Math.floor(raw / 2 ** shift) % 2 ** stored;
  return signed && value >= 2 ** (stored - 1) ? value - 2 ** stored : value;
}

function interleaved(planar: SampleValues, pixels: number, spp: number): SampleValues {
  const out = planar instanceof Float64Array ? new Float64Array(planar.length) : new Int32Array(planar.length);
  for (let s = 0; s < spp; s++) {
    for (let p = 0; p < pixels; p++) out[p * spp + s] = planar[s * pixels + p]!;
  }
  return out;
}
