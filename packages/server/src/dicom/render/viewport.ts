import type { Image } from './pixels.js';
import { RenderParamError } from './params.js';

/**
 * A viewport (PS3.18 8.3.5.1.3 viewport=vw,vh[,sx,sy,sw,sh]): the size of the image answered and
 * the source region rendered into it. sw or sh negative flips the region horizontally or
 * vertically; an absent source region is the whole image.
 */
export interface Viewport {
  vw: number;
  vh: number;
  sx?: number;
  sy?: number;
  sw?: number;
  sh?: number;
}

/**
 * The size of the answer: the source region scaled to fit within vw×vh, its aspect kept (at
 * least 1×1).
 */
export function fittedSize(vw: number, vh: number, sw: number, sh: number): { width: number; height: number } {
  const scale = Math.min(vw / sw, vh / sh);
  return { width: Math.max(1, Math.round(sw * scale)), height: Math.max(1, Math.round(sh * scale)) };
}

/**
 * One axis of resampling: for each output position, source indices and weights. Shrinking
 * averages the source pixels the output pixel covers, weighted by how much of each it covers (an
 * area average); enlarging interpolates linearly between the two nearest pixel centres.
 */
function axis(start: number, length: number, out: number): { index: Int32Array; weight: Float32Array; taps: number } {
  const scale = length / out;
  if (scale > 1) {
    const taps = Math.ceil(scale) + 1;
    const index = new Int32Array(out * taps);
    const weight = new Float32Array(out * taps);
    for (let o = 0; o < out; o++) {
      const from = start + o * scale;
      const to = from + scale;
      let t = 0;
      for (let s = Math.floor(from); s < to && s < start + length && t < taps; s++, t++) {
        const cover = Math.min(s + 1, to) - Math.max(s, from);
        index[o * taps + t] = s;
        weight[o * taps + t] = cover / scale;
      }
    }
    return { index, weight, taps };
  }
  const index = new Int32Array(out * 2);
  const weight = new Float32Array(out * 2);
  for (let o = 0; o < out; o++) {
    const at = Math.min(Math.max(start + (o + 0.5) * scale - 0.5, start), start + length - 1);
    const left = Math.floor(at);
    const right = Math.min(left + 1, start + length - 1);
    index[o * 2] = left;
    weight[o * 2] = 1 - (at - left);
    index[o * 2 + 1] = right;
    weight[o * 2 + 1] = at - left;
  }
  return { index, weight, taps: 2 };
}

/**
 * The image's source region (sx, sy, |sw|×|sh|, which must lie within the image) resampled to
 * width×height, flipped where sw or sh is negative. Rows first, then columns, in floating point.
 */
export function resample(
  image: Image,
  region: { sx: number; sy: number; sw: number; sh: number },
  width: number,
  height: number,
): Image {
  const { sx, sy } = region;
  const sw = Math.abs(region.sw);
  const sh = Math.abs(region.sh);
  if (sx < 0 || sy < 0 || sw < 1 || sh < 1 || sx + sw > image.width || sy + sh > image.height) {
    throw new RenderParamError(
      `The viewport's source region ${sx},${sy},${region.sw},${region.sh} is not within the ${image.width}×${image.height} image`,
    );
  }
  const c = image.components;
  const identity = sx === 0 && sy === 0 && sw === image.width && sh === image.height;
  let data: Uint8Array;
  if (identity && width === sw && height === sh) {
    data = image.data;
  } else {
    const x = axis(sx, sw, width);
    const y = axis(sy, sh, height);
    // Horizontal pass over the region's rows, into floats.
    const across = new Float32Array(sh * width * c);
    for (let r = 0; r < sh; r++) {
      const row = (sy + r) * image.width * c;
      for (let o = 0; o < width; o++) {
        for (let k = 0; k < c; k++) {
          let sum = 0;
          for (let t = 0; t < x.taps; t++) {
            const w = x.weight[o * x.taps + t]!;
            if (w) sum += w * image.data[row + x.index[o * x.taps + t]! * c + k]!;
          }
          across[(r * width + o) * c + k] = sum;
        }
      }
    }
    data = new Uint8Array(width * height * c);
    for (let o = 0; o < height; o++) {
      for (let i = 0; i < width * c; i++) {
        let sum = 0;
        for (let t = 0; t < y.taps; t++) {
          const w = y.weight[o * y.taps + t]!;
          if (w) sum += w * across[(y.index[o * y.taps + t]! - sy) * width * c + i]!;
        }
        data[o * width * c + i] = sum < 0 ? 0 : sum > 255 ? 255 : Math.round(sum);
      }
    }
  }
  if (region.sw < 0 || region.sh < 0) data = flipped(data, width, height, c, region.sw < 0, region.sh < 0);
  return { data, width, height, components: c };
}

function flipped(data: Uint8Array, width: number, height: number, c: number, h: boolean, v: boolean): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    const from = v ? height - 1 - y : y;
    for (let x = 0; x < width; x++) {
      const fx = h ? width - 1 - x : x;
      for (let k = 0; k < c; k++) out[(y * width + x) * c + k] = data[(from * width + fx) * c + k]!;
    }
  }
  return out;
}

/** The image as a viewport asks (none: as it is). */
export function applyViewport(image: Image, viewport?: Viewport): Image {
  if (!viewport) return image;
  const sx = viewport.sx ?? 0;
  const sy = viewport.sy ?? 0;
  const sw = viewport.sw ?? image.width - sx;
  const sh = viewport.sh ?? image.height - sy;
  // A negative width or height names the region from its far edge: sx,sy stay its top-left here.
  const { width, height } = fittedSize(viewport.vw, viewport.vh, Math.abs(sw), Math.abs(sh));
  return resample(image, { sx, sy, sw, sh }, width, height);
}
