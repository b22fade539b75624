/**
 * Deterministic pixel content for generated images. The CT phantom has known Hounsfield values
 * so viewer tests can measure them; the other modalities only need to look plausible and
 * change between slices/frames.
 */
import { endianness } from 'node:os';

// Pixel words are filled through Uint16Array views and copied into the file as they lie in
// memory, which is only correct on a little-endian host.
if (endianness() !== 'LE') {
  throw new Error('the DICOM test-data generator assumes a little-endian host');
}

/** Geometry and values of the CT phantom; radii and centres are fractions of Columns. */
export const CT_PHANTOM = {
  rescaleIntercept: -1024,
  rescaleSlope: 1,
  airHu: -1000,
  waterHu: 0,
  boneHu: 400,
  waterRadius: 0.35,
  boneRadius: 0.05,
  /** Bone disk centre: x = 0.7 × Columns, y = Rows / 2. */
  boneCenterX: 0.7,
  /** Around the image centre the water carries no texture, so 0 HU can be measured exactly. */
  exactWaterRadius: 0.1,
  /** Texture in air and outer water stays within ±textureHu. */
  textureHu: 6,
  sliceThickness: 1.25,
  fieldOfViewMm: 350,
  windowCenter: 40,
  windowWidth: 400,
  bitsStored: 12,
} as const;

export type CtRegion = 'air' | 'water' | 'exact-water' | 'bone';

/** Which phantom region the pixel at column x, row y falls in. */
export function ctPhantomRegion(x: number, y: number, rows: number, columns: number): CtRegion {
  const cy = rows / 2;
  const bx = x - CT_PHANTOM.boneCenterX * columns;
  const by = y - cy;
  if (bx * bx + by * by <= (CT_PHANTOM.boneRadius * columns) ** 2) {
    return 'bone';
  }
  const wx = x - columns / 2;
  const d2 = wx * wx + by * by;
  if (d2 <= (CT_PHANTOM.exactWaterRadius * columns) ** 2) {
    return 'exact-water';
  }
  return d2 <= (CT_PHANTOM.waterRadius * columns) ** 2 ? 'water' : 'air';
}

/** The exact HU at a pixel, or undefined where texture makes it vary by ±textureHu. */
export function ctPhantomExactHu(x: number, y: number, rows: number, columns: number): number | undefined {
  switch (ctPhantomRegion(x, y, rows, columns)) {
    case 'bone':
      return CT_PHANTOM.boneHu;
    case 'exact-water':
      return CT_PHANTOM.waterHu;
    default:
      return undefined;
  }
}

/** A cheap integer hash (murmur3 finaliser) for deterministic noise. */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

interface CtBase {
  stored: Uint16Array;
  textured: Uint32Array;
}
const ctBases = new Map<string, CtBase>();

/** Stored values without texture, plus the indices that get texture; computed once per size. */
function ctBase(rows: number, columns: number): CtBase {
  const key = `${rows}x${columns}`;
  const cached = ctBases.get(key);
  if (cached) {
    return cached;
  }
  const stored = new Uint16Array(rows * columns);
  const textured: number[] = [];
  const toStored = (hu: number) => hu - CT_PHANTOM.rescaleIntercept;
  for (let y = 0, i = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++, i++) {
      const region = ctPhantomRegion(x, y, rows, columns);
      const hu = region === 'bone' ? CT_PHANTOM.boneHu : region === 'air' ? CT_PHANTOM.airHu : CT_PHANTOM.waterHu;
      stored[i] = toStored(hu);
      if (region === 'air' || region === 'water') {
        textured.push(i);
      }
    }
  }
  const base = { stored, textured: Uint32Array.from(textured) };
  ctBases.set(key, base);
  return base;
}

/** Fills `out` (rows × columns stored values) with CT slice `slice`; texture shifts per slice. */
export function fillCtSlice(out: Uint16Array, rows: number, columns: number, slice: number): Uint16Array {
  const { stored, textured } = ctBase(rows, columns);
  out.set(stored);
  const span = 2 * CT_PHANTOM.textureHu + 1;
  for (let k = 0; k < textured.length; k++) {
    const i = textured[k]!;
    out[i] = out[i]! + (((mix(i, slice) >>> 16) * span) >>> 16) - CT_PHANTOM.textureHu;
  }
  return out;
}

/** MR: an axial "head" whose brain brightness and ventricle size change with the slice. */
export function fillMrSlice(out: Uint16Array, rows: number, columns: number, slice: number): Uint16Array {
  const cx = columns / 2;
  const cy = rows / 2;
  const ventricle = 0.06 + 0.01 * (slice % 5);
  for (let y = 0, i = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++, i++) {
      const ex = (x - cx) / (0.4 * columns);
      const ey = (y - cy) / (0.45 * rows);
      const r = ex * ex + ey * ey;
      const vx = Math.abs(x - cx) / columns - 0.06;
      const vy = (y - cy) / rows;
      let v = mix(i, slice) & 0x0f; // background noise
      if (r <= 1 && r > 0.82) {
        v = 300 + (mix(i, slice) & 0x3f);
      } else if (r <= 0.82) {
        v = 900 + 8 * slice + (mix(i, slice) & 0x3f);
        if (vx * vx + vy * vy * 0.25 <= ventricle * ventricle) {
          v = 1800;
        }
      }
      out[i] = v;
    }
  }
  return out;
}

/** DX: a chest-like projection (dark lungs, bright spine) on a 12-bit range. */
export function fillDxImage(out: Uint16Array, rows: number, columns: number): Uint16Array {
  const cx = columns / 2;
  for (let y = 0, i = 0; y < rows; y++) {
    const fy = y / rows;
    for (let x = 0; x < columns; x++, i++) {
      const fx = (x - cx) / columns;
      const body = Math.abs(fx) < 0.42 && fy > 0.05;
      let v = 80 + (mix(i, 7) & 0x1f);
      if (body) {
        v = 1800 + Math.round(600 * fy) + (mix(i, 11) & 0x3f);
        const lx = (Math.abs(fx) - 0.17) / 0.13;
        const ly = (fy - 0.45) / 0.3;
        if (lx * lx + ly * ly <= 1) {
          v = 700 + Math.round(300 * fy) + (mix(i, 13) & 0x3f);
        }
        if (Math.abs(fx) < 0.035) {
          v = 3200 + (mix(i, 17) & 0x3f);
        }
      }
      out[i] = v;
    }
  }
  return out;
}

/**
 * US: a sector scan with speckle and a dark cyst that moves across frames, so cine playback
 * visibly changes. RGB adds a colour-flow box whose hue alternates with the frame.
 */
export function fillUsClip(rows: number, columns: number, frames: number, rgb: boolean): Uint8Array {
  const spp = rgb ? 3 : 1;
  const out = new Uint8Array(frames * rows * columns * spp);
  const apexX = columns / 2;
  const maxDepth = 0.95 * rows;
  const halfAngle = (35 * Math.PI) / 180;
  for (let f = 0, o = 0; f < frames; f++) {
    const cystX = apexX + 0.15 * columns * Math.sin((2 * Math.PI * f) / Math.max(frames, 1));
    const cystY = 0.55 * rows;
    const cystR2 = (0.06 * rows) ** 2;
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < columns; x++, o += spp) {
        const dx = x - apexX;
        const depth = Math.hypot(dx, y);
        let v = 0;
        if (depth > 0.08 * rows && depth < maxDepth && Math.abs(Math.atan2(dx, y)) < halfAngle) {
          v = 40 + (mix(y * columns + x, f) & 0x5f) - Math.round((40 * depth) / maxDepth);
          if ((x - cystX) ** 2 + (y - cystY) ** 2 <= cystR2) {
            v = 6 + (mix(x, y + f) & 0x07);
          }
        }
        if (!rgb) {
          out[o] = v;
          continue;
        }
        const flow = x > 0.4 * columns && x < 0.6 * columns && y > 0.3 * rows && y < 0.4 * rows && v > 0;
        out[o] = flow && f % 2 === 0 ? 200 : v;
        out[o + 1] = v;
        out[o + 2] = flow && f % 2 === 1 ? 200 : v;
      }
    }
  }
  return out;
}
