/** A measurement as the side panel lists it, read from an annotation's cached statistics. */
export interface Measurement {
  uid: string;
  tool: string;
  /** number values by kind, in the units given */
  length?: number;
  angle?: number;
  mean?: number;
  stdDev?: number;
  area?: number;
  unit?: string;
  areaUnit?: string;
  text?: string;
}

interface AnnotationLike {
  annotationUID?: string;
  metadata?: { toolName?: string };
  data?: { cachedStats?: Record<string, Record<string, unknown> | undefined>; text?: string; label?: string };
}

const n = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The measurements of these annotations, in their order; annotations without statistics yet are skipped. */
export function toMeasurements(annotations: readonly AnnotationLike[]): Measurement[] {
  const out: Measurement[] = [];
  for (const a of annotations) {
    const tool = a.metadata?.toolName ?? '';
    const uid = a.annotationUID ?? '';
    if (tool === 'ArrowAnnotate') {
      out.push({ uid, tool, text: a.data?.text ?? '' });
      continue;
    }
    const stats = Object.values(a.data?.cachedStats ?? {}).find((v) => v !== undefined);
    if (!stats) continue;
    const m: Measurement = { uid, tool };
    const length = n(stats.length);
    const angle = n(stats.angle);
    const mean = n(stats.mean);
    if (length !== undefined) m.length = length;
    if (angle !== undefined) m.angle = angle;
    if (mean !== undefined) {
      m.mean = mean;
      const sd = n(stats.stdDev);
      const area = n(stats.area);
      if (sd !== undefined) m.stdDev = sd;
      if (area !== undefined) m.area = area;
    }
    const unit = s(stats.modalityUnit) ?? s(stats.unit);
    const areaUnit = s(stats.areaUnit);
    if (unit) m.unit = unit;
    if (areaUnit) m.areaUnit = areaUnit;
    if (m.length === undefined && m.angle === undefined && m.mean === undefined) continue;
    out.push(m);
  }
  return out;
}
