/**
 * RLE Lossless (1.2.840.10008.1.2.5, PS3.5 Annex G). A frame is a 64-byte header (the number of
 * segments and up to 15 segment offsets, little endian) followed by its segments: one per byte of
 * each sample, the most significant byte of sample 0 first (G.2), each PackBits-coded (G.3.1) and
 * padded to an even length.
 */
import { CodecError } from './errors.js';

const HEADER = 64;
const MAX_SEGMENTS = 15;

const corrupt = (what: string) => new CodecError(`RLE frame: ${what}`, 'corrupt');

/**
 * Decodes a frame to interleaved little-endian samples: `pixels` pixels of `samplesPerPixel`
 * samples of `size` bytes.
 */
export function decodeRle(frame: Uint8Array, pixels: number, samplesPerPixel: number, size: number): Uint8Array {
  if (frame.length < HEADER) throw corrupt('shorter than its header');
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const segments = view.getUint32(0, true);
  const expected = samplesPerPixel * size;
  if (segments !== expected) throw corrupt(`${segments} segments, ${expected} expected`);
  const out = new Uint8Array(pixels * expected);
  for (let s = 0; s < segments; s++) {
    const start = view.getUint32(4 + 4 * s, true);
    const end = s + 1 < segments ? view.getUint32(8 + 4 * s, true) : frame.length;
    if (start < HEADER || end > frame.length || start > end) throw corrupt(`segment ${s + 1} lies outside the frame`);
    // Segment s holds byte (size - 1 - s % size) of sample ⌊s / size⌋ of every pixel (most significant first).
    const sample = Math.floor(s / size);
    const byte = size - 1 - (s % size);
    let at = start;
    let p = 0;
    let to = sample * size + byte;
    while (p < pixels && at < end) {
      const n = frame[at++]!;
      if (n < 128) {
        const count = n + 1;
        if (at + count > end) throw corrupt('a literal run overruns its segment');
        for (let k = 0; k < count && p < pixels; k++, p++, to += expected) out[to] = frame[at + k]!;
        at += count;
      } else if (n > 128) {
        if (at >= end) throw corrupt('a replicate run without its byte');
        const value = frame[at++]!;
        for (let k = 0; k < 257 - n && p < pixels; k++, p++, to += expected) out[to] = value;
      }
      // n = 128 (-128) is a no-op.
    }
    if (p < pixels) throw corrupt(`segment ${s + 1} decodes ${p} of ${pixels} pixels`);
  }
  return out;
}

/**
 * PackBits (G.3.1) of `count` bytes of `src` taken every `stride` bytes from `first`, written
 * into `out` from `at`; answers where the segment ends. `out` has room for the worst case (a
 * header byte per 128 literals, and the pad).
 */
function packBits(src: Uint8Array, first: number, stride: number, count: number, out: Uint8Array, at: number): number {
  let i = 0;
  let o = at;
  while (i < count) {
    // A run of two or more equal bytes is replicated (up to 128); otherwise literals up to 128.
    const value = src[first + i * stride]!;
    let run = 1;
    while (i + run < count && run < 128 && src[first + (i + run) * stride] === value) run++;
    if (run >= 2) {
      out[o++] = 257 - run;
      out[o++] = value;
      i += run;
      continue;
    }
    let literal = 1;
    while (i + literal < count && literal < 128) {
      const next = first + (i + literal) * stride;
      if (i + literal + 1 < count && src[next] === src[next + stride]) break;
      literal++;
    }
    out[o++] = literal - 1;
    for (let k = 0; k < literal; k++) out[o++] = src[first + (i + k) * stride]!;
    i += literal;
  }
  // A segment has an even length (G.3.1): the pad byte follows its last run, past every pixel.
  if ((o - at) % 2 === 1) out[o++] = 0;
  return o;
}

/** Encodes interleaved little-endian samples as an RLE frame. */
export function encodeRle(samples: Uint8Array, pixels: number, samplesPerPixel: number, size: number): Uint8Array {
  const segments = samplesPerPixel * size;
  if (segments > MAX_SEGMENTS) throw new CodecError(`RLE holds at most ${MAX_SEGMENTS} segments`, 'unsupported-pixels');
  const worst = pixels + Math.ceil(pixels / 128) + 2;
  const out = new Uint8Array(HEADER + segments * worst);
  const view = new DataView(out.buffer);
  view.setUint32(0, segments, true);
  let offset = HEADER;
  for (let s = 0; s < segments; s++) {
    view.setUint32(4 + 4 * s, offset, true);
    // Segment s holds byte (size - 1 - s % size) of sample ⌊s / size⌋: most significant first.
    const first = Math.floor(s / size) * size + (size - 1 - (s % size));
    offset = packBits(samples, first, segments, pixels, out, offset);
  }
  return out.subarray(0, offset);
  return out;
}
