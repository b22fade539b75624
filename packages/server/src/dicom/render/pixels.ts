import type { PaletteLut, PixelModule, VoiFunction, Window } from './pixel-module.js';
import { RenderError, type SampleValues } from './samples.js';

/** An 8-bit image: gray (1 component) or RGB (3), interleaved, row by row. */
export interface Image {
  data: Uint8Array;
  width: number;
  height: number;
  components: 1 | 3;
}

/** The VOI a request asks for (PS3.18 8.3.5.1.4 window=center,width,function). */
export interface VoiRequest {
  window?: Window;
  voiFunction?: VoiFunction;
}

const MONOCHROME = new Set(['MONOCHROME1', 'MONOCHROME2']);

/**
 * The output value (0..255) of modality value x through a VOI window (PS3.3 C.11.2.1.2 and
 * C.11.2.1.3.1), before any MONOCHROME1 inversion.
 */
export function voi(x: number, { center: c, width: w }: Window, fn: VoiFunction): number {
  let y: number;
  if (fn === 'SIGMOID') {
    y = 255 / (1 + Math.exp((-4 * (x - c)) / w));
  } else if (fn === 'LINEAR_EXACT') {
    if (x <= c - w / 2) y = 0;
    else if (x > c + w / 2) y = 255;
    else y = ((x - c) / w + 0.5) * 255;
  } else {
    // LINEAR: a width of 1 is a threshold at c - 0.5.
    if (x <= c - 0.5 - (w - 1) / 2) y = 0;
    else if (x > c - 0.5 + (w - 1) / 2) y = 255;
    else y = ((x - (c - 0.5)) / (w - 1) + 0.5) * 255;
  }
  return Math.min(255, Math.max(0, Math.round(y)));
}

function range(values: SampleValues): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return values.length ? { min, max } : { min: 0, max: 0 };
}

/**
 * A grayscale frame as 8-bit: Modality LUT (Rescale Slope and Intercept), then the VOI window of
 * the request, else the instance's first Window Center/Width, else the full range of the frame's
 * modality values (LINEAR_EXACT from its min to its max), then MONOCHROME1 inverted so that
 * white is high. Every distinct stored value is windowed once (a table over the frame's range).
 */
export function grayscale(values: SampleValues, m: PixelModule, request: VoiRequest = {}): Uint8Array {
  const slope = m.rescaleSlope;
  const intercept = m.rescaleIntercept;
  const { min, max } = range(values);
  let window = request.window ?? m.window;
  let fn = request.window ? (request.voiFunction ?? 'LINEAR') : m.window ? m.voiFunction : 'LINEAR_EXACT';
  if (!window) {
    const lo = Math.min(min * slope + intercept, max * slope + intercept);
    const hi = Math.max(min * slope + intercept, max * slope + intercept);
    window = { center: (lo + hi) / 2, width: Math.max(hi - lo, 1) };
    fn = 'LINEAR_EXACT';
  }
  // LINEAR needs a width of at least 1 (PS3.3 C.11.2.1.2.1).
  if (fn === 'LINEAR' && window.width < 1) window = { ...window, width: 1 };
  const invert = m.photometricInterpretation === 'MONOCHROME1';
  const map = (stored: number) => {
    const y = voi(stored * slope + intercept, window, fn);
    return invert ? 255 - y : y;
  };
  const out = new Uint8Array(values.length);
  const span = max - min + 1;
  if (Number.isInteger(min) && span <= 1 << 20 && span <= values.length * 4) {
    const table = new Uint8Array(span);
    for (let i = 0; i < span; i++) table[i] = map(min + i);
    for (let i = 0; i < values.length; i++) out[i] = table[values[i]! - min]!;
  } else {
    for (let i = 0; i < values.length; i++) out[i] = map(values[i]!);
  }
  return out;
}

/** A palette entry as 8 bits: entries of 16 bits keep their high byte. */
function lookUp(lut: PaletteLut, value: number): number {
  const i = Math.min(lut.data.length - 1, Math.max(0, value - lut.first));
  const v = lut.data[i]!;
  return lut.bits > 8 ? v >> (lut.bits - 8) : v & 0xff;
}

const clamp8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/**
 * A colour frame as 8-bit RGB (PS3.3 C.7.6.3.1.2): RGB as is (samples of more than 8 bits keep
 * their high 8), YBR_FULL and YBR_FULL_422 converted with the PS3.3 equations, PALETTE COLOR
 * through its lookup tables. Windowing does not apply to colour.
 */
export function color(values: SampleValues, m: PixelModule): Uint8Array {
  const pixels = m.rows * m.columns;
  const out = new Uint8Array(pixels * 3);
  const pi = m.photometricInterpretation;
  const down = Math.max(0, Math.min(m.bitsStored, 16) - 8);
  const eight = (v: number) => (down ? v >> down : v) & 0xff;
  if (pi === 'PALETTE COLOR') {
    if (!m.palette) throw new RenderError('PALETTE COLOR without a complete palette cannot be rendered');
    const { red, green, blue } = m.palette;
    for (let p = 0; p < pixels; p++) {
      const v = values[p]!;
      out[3 * p] = lookUp(red, v);
      out[3 * p + 1] = lookUp(green, v);
      out[3 * p + 2] = lookUp(blue, v);
    }
    return out;
  }
  if (m.samplesPerPixel !== 3) throw new RenderError(`${pi} with ${m.samplesPerPixel} samples cannot be rendered`);
  if (pi === 'RGB') {
    for (let i = 0; i < pixels * 3; i++) out[i] = eight(values[i]!);
    return out;
  }
  const ybr = (p: number, y: number, cb: number, cr: number) => {
    out[3 * p] = clamp8(y + 1.402 * (cr - 128));
    out[3 * p + 1] = clamp8(y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128));
    out[3 * p + 2] = clamp8(y + 1.772 * (cb - 128));
  };
  if (pi === 'YBR_FULL') {
    for (let p = 0; p < pixels; p++) {
      ybr(p, eight(values[3 * p]!), eight(values[3 * p + 1]!), eight(values[3 * p + 2]!));
    }
    return out;
  }
  if (pi === 'YBR_FULL_422') {
    // Native 4:2:2: Y1 Y2 Cb Cr for each pair of pixels of a row.
    for (let p = 0; p < pixels; p++) {
      const pair = 4 * (p >> 1);
      ybr(p, eight(values[pair + (p & 1)]!), eight(values[pair + 2]!), eight(values[pair + 3]!));
    }
    return out;
  }
  throw new RenderError(`Photometric Interpretation ${pi} cannot be rendered`);
}

/** A frame's samples as an 8-bit image: gray for MONOCHROME1/2, RGB for the colour models. */
export function toImage(values: SampleValues, m: PixelModule, request: VoiRequest = {}): Image {
  const { rows: height, columns: width } = m;
  if (MONOCHROME.has(m.photometricInterpretation)) {
    if (m.samplesPerPixel !== 1) throw new RenderError(`${m.photometricInterpretation} with several samples`);
    return { data: grayscale(values.subarray(0, width * height), m, request), width, height, components: 1 };
  }
  return { data: color(values, m), width, height, components: 3 };
}
