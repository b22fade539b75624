/**
 * Grayscale Softcopy Presentation States (PS3.3 C.10.5 Graphic Annotation): the simple graphic
 * annotations a viewer draws over the images a state references (POLYLINE, INTERPOLATED, POINT,
 * CIRCLE, ELLIPSE) and its text objects, in PIXEL units. DISPLAY-unit items (relative to the
 * displayed area) are left out. Protocol only; untrusted input: counts and points are capped.
 */
import { charsetOf, itemsOf, textOf, type Dataset } from './dataset-reader.js';

/** At most this many graphic or text objects are read per state, and points per graphic. */
export const GSPS_MAX_OBJECTS = 2000;
export const GSPS_MAX_POINTS = 10_000;

const T = {
  refSopInstance: 0x00081155,
  refFrames: 0x00081160,
  refImageSeq: 0x00081140,
  refSeriesSeq: 0x00081115,
  annotationSeq: 0x00700001,
  layer: 0x00700002,
  boxUnits: 0x00700003,
  anchorUnits: 0x00700004,
  graphicUnits: 0x00700005,
  text: 0x00700006,
  textSeq: 0x00700008,
  graphicSeq: 0x00700009,
  boxTopLeft: 0x00700010,
  boxBottomRight: 0x00700011,
  anchor: 0x00700014,
  graphicDimensions: 0x00700020,
  pointCount: 0x00700021,
  graphicData: 0x00700022,
  graphicType: 0x00700023,
  filled: 0x00700024,
  contentLabel: 0x00700080,
  contentDescription: 0x00700081,
} as const;

export type GraphicType = 'POLYLINE' | 'INTERPOLATED' | 'POINT' | 'CIRCLE' | 'ELLIPSE';
const GRAPHIC_TYPES: ReadonlySet<string> = new Set(['POLYLINE', 'INTERPOLATED', 'POINT', 'CIRCLE', 'ELLIPSE']);

export interface GspsGraphic {
  type: GraphicType;
  /** x (column), y (row) pairs in image pixels, 0\0 the top left corner of the top left pixel */
  points: number[];
  filled: boolean;
}

export interface GspsText {
  text: string;
  /** the bounding box (x1, y1, x2, y2) in pixels, when given in PIXEL units */
  box: number[] | null;
  /** the anchor point (x, y) in pixels, when given in PIXEL units */
  anchor: number[] | null;
}

/** One Graphic Annotation item: its objects and the images it applies to ([]: every image of the state). */
export interface GspsAnnotation {
  layer: string;
  images: { sopUid: string; frames: number[] }[];
  graphics: GspsGraphic[];
  texts: GspsText[];
}

export interface GspsState {
  label: string;
  description: string;
  /** the images the state presents (Referenced Series Sequence) */
  images: { sopUid: string; frames: number[] }[];
  annotations: GspsAnnotation[];
  /** objects were left out (DISPLAY units, unknown types, over the caps) */
  skipped: number;
}

/** FL values (little endian) of an element; [] when absent or not a whole number of floats. */
function floats(ds: Dataset, t: number, max: number): number[] {
  const v = ds.get(t)?.value;
  if (!v || v.length % 4 !== 0) return [];
  const out: number[] = [];
  for (let i = 0; i < v.length && out.length < max; i += 4) out.push(v.readFloatLE(i));
  return out.every(Number.isFinite) ? out : [];
}

function images(items: Dataset[], charset: string) {
  return items.slice(0, GSPS_MAX_OBJECTS).flatMap((i) => {
    const sopUid = textOf(i, T.refSopInstance, charset);
    if (!sopUid) return [];
    const frames = textOf(i, T.refFrames, charset)
      .split('\\')
      .map((f) => Number.parseInt(f, 10))
      .filter((n) => Number.isInteger(n) && n > 0)
      .slice(0, 1000);
    return [{ sopUid, frames }];
  });
}

/** The graphic annotations and text of a presentation state (its dataset). */
export function readGsps(ds: Dataset): GspsState {
  const charset = charsetOf(ds);
  let skipped = 0;
  let objects = 0;
  const presented = itemsOf(ds, T.refSeriesSeq).flatMap((s) => images(itemsOf(s, T.refImageSeq), charset));
  const annotations: GspsAnnotation[] = [];
  for (const a of itemsOf(ds, T.annotationSeq)) {
    const annotation: GspsAnnotation = {
      layer: textOf(a, T.layer, charset),
      images: images(itemsOf(a, T.refImageSeq), charset),
      graphics: [],
      texts: [],
    };
    for (const g of itemsOf(a, T.graphicSeq)) {
      const type = textOf(g, T.graphicType, charset);
      const pixel = textOf(g, T.graphicUnits, charset) === 'PIXEL';
      const dimensions = g.get(T.graphicDimensions)?.value;
      const twoD = !dimensions || dimensions.length < 2 || dimensions.readUInt16LE(0) === 2;
      const points = floats(g, T.graphicData, GSPS_MAX_POINTS * 2);
      if (++objects > GSPS_MAX_OBJECTS || !pixel || !twoD || !GRAPHIC_TYPES.has(type) || points.length < 2) {
        skipped++;
        continue;
      }
      annotation.graphics.push({
        type: type as GraphicType,
        points: points.slice(0, points.length - (points.length % 2)),
        filled: textOf(g, T.filled, charset) === 'Y',
      });
    }
    for (const x of itemsOf(a, T.textSeq)) {
      const box = textOf(x, T.boxUnits, charset) === 'PIXEL' ? floats(x, T.boxTopLeft, 2) : [];
      const boxEnd = box.length === 2 ? floats(x, T.boxBottomRight, 2) : [];
      const anchor = textOf(x, T.anchorUnits, charset) === 'PIXEL' ? floats(x, T.anchor, 2) : [];
      const text = textOf(x, T.text, charset, 'text').slice(0, 1024);
      if (++objects > GSPS_MAX_OBJECTS || !text || (boxEnd.length !== 2 && anchor.length !== 2)) {
        skipped++;
        continue;
      }
      annotation.texts.push({
        text,
        box: boxEnd.length === 2 ? [...box, ...boxEnd] : null,
        anchor: anchor.length === 2 ? anchor : null,
      });
    }
    if (annotation.graphics.length || annotation.texts.length) annotations.push(annotation);
  }
  return {
    label: textOf(ds, T.contentLabel, charset),
    description: textOf(ds, T.contentDescription, charset, 'text'),
    images: presented,
    annotations,
    skipped,
  };
}
