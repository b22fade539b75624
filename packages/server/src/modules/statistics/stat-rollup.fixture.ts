/**
 * The rollup oracle's direct count (test support): what stat_daily must hold and what each
 * rollup-served statistic must answer, computed in JavaScript from the raw exams and reports, by
 * the rules written in the issue rather than by the statements under test.
 */

export interface RawExam {
  id: string;
  bucketId: string;
  modality: string;
  bodyPart: string;
  bodyPartCount: number | null;
  created: Date;
  deletedTime: Date | null;
}

export interface RawReport {
  id: string;
  bucketId: string;
  status: string;
  approvedAt: Date | null;
  creatorId: string | null;
  approverId: string | null;
  noteTakerId: string | null;
  content: { positive?: boolean | null; bodyPartCount?: number | null };
}

export interface Cell {
  bucketId: string;
  kind: string;
  day: string;
  k1: string;
  k2: string;
  k3: string;
  n: number;
  s: number;
}

/** The hospital day (UTC+8) of an instant. */
export const hospitalDay = (t: Date) => new Date(t.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

/** Every stat_daily row the raw rows call for, sorted. */
export function expectedCells(exams: readonly RawExam[], reports: readonly RawReport[]): Cell[] {
  const cells = new Map<string, Cell>();
  const add = (bucketId: string, kind: string, day: string, k1: string, k2: string, k3: string, s: number) => {
    const key = [bucketId, kind, day, k1, k2, k3].join('|');
    const c = cells.get(key) ?? { bucketId, kind, day, k1, k2, k3, n: 0, s: 0 };
    c.n += 1;
    c.s += s;
    cells.set(key, c);
  };
  const byId = new Map(reports.map((r) => [r.id, r]));
  const bodyParts = (e: RawExam) => {
    const own = byId.get(e.id)?.content.bodyPartCount;
    return typeof own === 'number' ? own : (e.bodyPartCount ?? 1);
  };
  const first = (m: string) => m.split('\\')[0] ?? '';
  const live = new Map(exams.filter((e) => e.deletedTime === null).map((e) => [e.id, e]));
  for (const e of live.values()) add(e.bucketId, 'ex', hospitalDay(e.created), '', first(e.modality), '', bodyParts(e));
  for (const r of reports) {
    const e = live.get(r.id);
    if (!e || !r.approvedAt || (r.status !== 'corrected' && r.status !== 'printed')) continue;
    const day = hospitalDay(r.approvedAt);
    const m = first(e.modality);
    add(r.bucketId, 'rw', day, r.creatorId ?? '', m, '', bodyParts(e));
    add(r.bucketId, 'ra', day, r.approverId ?? '', m, '', bodyParts(e));
    const positive = r.content.positive;
    if (typeof positive === 'boolean') add(r.bucketId, 'rp', day, r.creatorId ?? '', m, e.bodyPart, positive ? 1 : 0);
    if (r.noteTakerId) add(r.bucketId, 'nt', day, r.noteTakerId, '', '', bodyParts(e));
  }
  return sortCells([...cells.values()]);
}

export function sortCells(cells: Cell[]): Cell[] {
  const k = (c: Cell) => [c.bucketId, c.kind, c.day, c.k1, c.k2, c.k3].join('|');
  return cells.sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
}

type Values = Record<string, number | null>;

/** What the rows of a statistic by a dimension hold, from the expected cells (a key → values). */
export function expectedTable(
  cells: readonly Cell[],
  kind: 'report' | 'report-positive' | 'note-taker' | 'study',
  by: string,
  range: { from: string; to: string },
): { rows: Record<string, Values>; totals: Values } {
  const inRange = cells.filter((c) => c.day >= range.from && c.day <= range.to);
  const keyOf = (c: Cell) =>
    by === 'bucket' ? c.bucketId : by === 'modality' ? c.k2 : by === 'bodyPart' ? c.k3 : c.k1;
  const sums = new Map<string, Map<string, { n: number; s: number }>>();
  const kinds = { report: ['rw', 'ra'], 'report-positive': ['rp'], 'note-taker': ['nt'], study: ['ex', 'ra'] }[kind];
  for (const c of inRange.filter((x) => kinds.includes(x.kind))) {
    for (const key of [keyOf(c), '\u0000total']) {
      const m = sums.get(key) ?? new Map<string, { n: number; s: number }>();
      const p = m.get(c.kind) ?? { n: 0, s: 0 };
      m.set(c.kind, { n: p.n + c.n, s: p.s + c.s });
      sums.set(key, m);
    }
  }
  const values = (m: Map<string, { n: number; s: number }>): Values => {
    const g = (k: string) => m.get(k) ?? { n: 0, s: 0 };
    switch (kind) {
      case 'report':
        return {
          written: g('rw').n,
          approved: g('ra').n,
          writtenBodyParts: g('rw').s,
          approvedBodyParts: g('ra').s,
        };
      case 'report-positive': {
        const p = g('rp');
        return { reports: p.n, positive: p.s, negative: p.n - p.s, positiveRate: p.n ? p.s / p.n : null };
      }
      case 'note-taker':
        return { reports: g('nt').n, bodyParts: g('nt').s };
      case 'study':
        return { exams: g('ex').n, bodyParts: g('ex').s, reported: g('ra').n };
    }
  };
  const rows: Record<string, Values> = {};
  for (const [key, m] of sums) if (key !== '\u0000total') rows[key] = values(m);
  return { rows, totals: values(sums.get('\u0000total') ?? new Map()) };
}

/**
 * What statistics/overview must answer from the expected cells: live exams (ex) and approved
 * reports (rw: each once, under its writer) per organization and per day, and per person the
 * reports written (rw) and approved (ra); people are those who wrote or approved one.
 */
export function expectedOverview(
  cells: readonly Cell[],
  range: { from: string; to: string; modality?: string },
): {
  totals: { exams: number; reports: number; users: number };
  byBucket: Record<string, { exams: number; reports: number }>;
  byDay: Record<string, { exams: number; reports: number }>;
  byUser: Record<string, { written: number; approved: number }>;
} {
  const inRange = cells.filter(
    (c) => c.day >= range.from && c.day <= range.to && (range.modality === undefined || c.k2 === range.modality),
  );
  const totals = { exams: 0, reports: 0, users: 0 };
  const byBucket: Record<string, { exams: number; reports: number }> = {};
  const byDay: Record<string, { exams: number; reports: number }> = {};
  const byUser: Record<string, { written: number; approved: number }> = {};
  for (const c of inRange) {
    if (c.kind === 'ex' || c.kind === 'rw') {
      const field = c.kind === 'ex' ? 'exams' : 'reports';
      totals[field] += c.n;
      for (const [m, k] of [
        [byBucket, c.bucketId],
        [byDay, c.day],
      ] as const) {
        m[k] ??= { exams: 0, reports: 0 };
        m[k]![field] += c.n;
      }
    }
    if ((c.kind === 'rw' || c.kind === 'ra') && c.k1 !== '') {
      byUser[c.k1] ??= { written: 0, approved: 0 };
      byUser[c.k1]![c.kind === 'rw' ? 'written' : 'approved'] += c.n;
    }
  }
  totals.users = Object.keys(byUser).length;
  return { totals, byBucket, byDay, byUser };
}

/** A small seeded generator (mulberry32), so a failing run can be replayed from its seed. */
export function prng(seed: number): { next(): number; int(n: number): number; pick<T>(xs: readonly T[]): T } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]) => xs[int(xs.length)]! };
}
