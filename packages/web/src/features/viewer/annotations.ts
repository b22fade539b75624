import type { ImageAnnotation } from '@yyp/contracts';

/** A presentation state's graphic or text as the overlay draws it, in canvas pixels. */
export type Shape =
  | { kind: 'polyline'; points: [number, number][]; closed: boolean; filled: boolean }
  | { kind: 'point'; at: [number, number] }
  | { kind: 'ellipse'; center: [number, number]; rx: number; ry: number; rotation: number; filled: boolean }
  | { kind: 'text'; at: [number, number]; text: string };

/** Image pixel (GSPS PIXEL units: 0,0 the top left corner of the top left pixel) → canvas point. */
export type ToCanvas = (x: number, y: number) => [number, number];

const pairs = (points: number[]): [number, number][] => {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < points.length; i += 2) out.push([points[i]!, points[i + 1]!]);
  return out;
};
const distance = (a: [number, number], b: [number, number]) => Math.hypot(b[0] - a[0], b[1] - a[1]);

/** The shapes of the annotations of one image (PS3.3 C.10.5.1.2 graphic types), mapped by `toCanvas`. */
export function annotationShapes(annotations: ImageAnnotation[], toCanvas: ToCanvas): Shape[] {
  const shapes: Shape[] = [];
  for (const a of annotations) {
    for (const g of a.graphics) {
      const p = pairs(g.points).map(([x, y]) => toCanvas(x, y));
      if (g.type === 'POINT') {
        for (const at of p) shapes.push({ kind: 'point', at });
      } else if (g.type === 'CIRCLE' && p.length >= 2) {
        const r = distance(p[0]!, p[1]!);
        shapes.push({ kind: 'ellipse', center: p[0]!, rx: r, ry: r, rotation: 0, filled: g.filled });
      } else if (g.type === 'ELLIPSE' && p.length >= 4) {
        const [a0, a1, b0, b1] = p as [[number, number], [number, number], [number, number], [number, number]];
        shapes.push({
          kind: 'ellipse',
          center: [(a0[0] + a1[0]) / 2, (a0[1] + a1[1]) / 2],
          rx: distance(a0, a1) / 2,
          ry: distance(b0, b1) / 2,
          rotation: (Math.atan2(a1[1] - a0[1], a1[0] - a0[0]) * 180) / Math.PI,
          filled: g.filled,
        });
      } else if ((g.type === 'POLYLINE' || g.type === 'INTERPOLATED') && p.length >= 2) {
        const [first, last] = [p[0]!, p[p.length - 1]!];
        const closed = p.length > 2 && first[0] === last[0] && first[1] === last[1];
        shapes.push({ kind: 'polyline', points: p, closed, filled: g.filled && closed });
      }
    }
    for (const x of a.texts) {
      const at = x.anchor ?? (x.box ? x.box.slice(0, 2) : null);
      if (at && at.length === 2) shapes.push({ kind: 'text', at: toCanvas(at[0]!, at[1]!), text: x.text });
    }
  }
  return shapes;
}

/** The annotations that apply to one frame of one image. */
export function annotationsOf(all: ImageAnnotation[], sopUid: string, frame: number): ImageAnnotation[] {
  return all.filter((a) => a.sopUid === sopUid && (a.frames.length === 0 || a.frames.includes(frame)));
}
