import {
  MARK_CIRCLE_RADIUS,
  MARK_FONT_SIZE,
  MAX_SAMPLE_POINTS,
  SAMPLE_GRAPH_MAX_BYTES,
  SAMPLE_GRAPH_TYPES,
  markScale,
  type SamplePoint,
} from '@yyp/contracts';

/** The colours a mark can take (spec 000 §3 "point (x, y, color)"), red first. */
export const MARK_COLORS = [
  { key: 'red', value: '#f5222d' },
  { key: 'blue', value: '#1677ff' },
  { key: 'green', value: '#389e0d' },
  { key: 'orange', value: '#fa8c16' },
  { key: 'purple', value: '#722ed1' },
  { key: 'black', value: '#000000' },
] as const;
export type MarkColorKey = (typeof MARK_COLORS)[number]['key'];

/**
 * A mark's circle radius and label font on an image `height` pixels high (spec 000 §9: 12 and 24
 * on an image 400 high, scaled with the height). Drawn in the image's own pixels, the marks then
 * appear at 12 × displayed height / 400 whatever size the image is shown at.
 */
export function markSize(height: number): { radius: number; fontSize: number } {
  const scale = markScale(height);
  return { radius: MARK_CIRCLE_RADIUS * scale, fontSize: MARK_FONT_SIZE * scale };
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The image pixel under a click at (clientX, clientY) on the image shown in `box`; null outside it. */
export function toImagePoint(
  clientX: number,
  clientY: number,
  box: Box,
  image: { width: number; height: number },
): { x: number; y: number } | null {
  if (box.width <= 0 || box.height <= 0) {
    return null;
  }
  const fx = (clientX - box.left) / box.width;
  const fy = (clientY - box.top) / box.height;
  if (fx < 0 || fx > 1 || fy < 0 || fy > 1) {
    return null;
  }
  return { x: Math.round(fx * image.width), y: Math.round(fy * image.height) };
}

/** A click this much beyond a circle's edge still takes the mark: small circles are hard to hit. */
const HIT_SLACK = 1.25;

/**
 * The index of the mark under (x, y), both in image pixels, marks of radius `radius`: the one
 * drawn last (on top) when several overlap; -1 when none.
 */
export function markAt(points: readonly SamplePoint[], x: number, y: number, radius: number): number {
  const reach = radius * HIT_SLACK;
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i]!;
    if ((p.x - x) ** 2 + (p.y - y) ** 2 <= reach ** 2) {
      return i;
    }
  }
  return -1;
}

/** The smallest number not yet used as a label, so a mark removed and put back keeps its number. */
export function nextLabel(points: readonly SamplePoint[]): string {
  const used = new Set(points.map((p) => p.label));
  let n = 1;
  while (used.has(String(n))) {
    n++;
  }
  return String(n);
}

/**
 * What a click at (x, y) does to the marks: removes the mark it lands on, or adds the next
 * numbered one in `color`. Null when nothing changes (the graph already holds the most marks).
 */
export function clickMarks(
  points: readonly SamplePoint[],
  at: { x: number; y: number },
  color: string,
  radius: number,
): SamplePoint[] | null {
  const hit = markAt(points, at.x, at.y, radius);
  if (hit >= 0) {
    return points.filter((_, i) => i !== hit);
  }
  if (points.length >= MAX_SAMPLE_POINTS) {
    return null;
  }
  return [...points, { x: at.x, y: at.y, color, label: nextLabel(points) }];
}

/**
 * Where a mark's label goes: right of its circle, or left of it when it would run off the image's
 * right edge (a label is about 0.6 em wide per character).
 */
export function labelPlacement(
  point: SamplePoint,
  radius: number,
  fontSize: number,
  imageWidth: number,
): { x: number; anchor: 'start' | 'end' } {
  const gap = radius * 1.25;
  const width = point.label.length * fontSize * 0.6;
  return point.x + gap + width <= imageWidth
    ? { x: point.x + gap, anchor: 'start' }
    : { x: point.x - gap, anchor: 'end' };
}

export type GraphFileProblem = 'wrongType' | 'tooLarge';

/** Why a file cannot become a sample graph (PNG or JPEG, at most 5 MB), or null. */
export function graphFileProblem(file: Blob): GraphFileProblem | null {
  if (!(SAMPLE_GRAPH_TYPES as readonly string[]).includes(file.type)) {
    return 'wrongType';
  }
  return file.size > SAMPLE_GRAPH_MAX_BYTES ? 'tooLarge' : null;
}
