import { QUALITY_LEVELS, type StatColumn, type StatKind } from '@yyp/contracts';
import { accountNames } from '../reports/index.js';
import type { Db } from '../../platform/db.js';
import { sumRolled, sumRolledPeriods } from './stat-monthly.store.js';
import { gradesByItem, type GradeCountRow } from './stat-quality.store.js';
import { refreshRollups, rollupQuery } from './stat-rollup.store.js';
import type { StatRequest, StatResult, StatSource } from './stat-source.js';

const COLUMNS: StatColumn[] = ['graded', 'levelA', 'levelB', 'levelC', 'levelD', 'unsatisfactory'];
const LEVEL_COLUMN = { A: 'levelA', B: 'levelB', C: 'levelC', D: 'levelD' } as const;

/** Grades summed per key: graded, one column per level, unsatisfactory items named. */
export function sumGrades(rows: readonly GradeCountRow[]): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) {
    let v = out.get(r.key);
    if (!v) {
      v = Object.fromEntries(COLUMNS.map((c) => [c, 0])) as Record<string, number>;
      out.set(r.key, v);
    }
    v.graded! += r.n;
    v.unsatisfactory! += r.items;
    const column = LEVEL_COLUMN[r.level as keyof typeof LEVEL_COLUMN];
    if (column) v[column]! += r.n;
  }
  return out;
}

type GradeKey = 'level' | 'doctor' | 'bucket' | 'item';

/**
 * The grades per key and level, from the rollups (qg, or qi by item; stat-quality-rollup.store.ts):
 * what the direct count (stat-quality.store.ts) answers. One doctor's items are counted from the
 * grades (qi has no writer key). The caller refreshes the organizations' marked days first.
 */
export async function gradeRows(db: Db, req: StatRequest, by: GradeKey): Promise<GradeCountRow[]> {
  if (by === 'item' && req.doctorId) return gradesByItem(db, req);
  const q = by === 'item' ? rollupQuery(req, ['qi'], { k2: req.modality }) : rollupQuery(req, ['qg'], gradeKeys(req));
  const key = by === 'item' || by === 'doctor' ? 'k1' : by === 'bucket' ? 'bucket' : 'k3';
  const sums = await sumRolled(db, q, key, 'k3');
  return sums.map((r) => ({ key: r.key, level: r.sub, n: r.n, items: r.s }));
}

/** qg's filters: the writer (k1) and the modality (k2). */
const gradeKeys = (req: StatRequest) => ({ k1: req.doctorId, k2: req.modality });

/** The grades per period and level, from the rollups (qg). */
async function gradeRowsByPeriod(db: Db, req: StatRequest): Promise<GradeCountRow[]> {
  const sums = await sumRolledPeriods(db, rollupQuery(req, ['qg'], gradeKeys(req)), req.interval, { sub: 'k3' });
  return sums.map((r) => ({ key: r.period, level: r.sub, n: r.n, items: r.s }));
}

/**
 * statistics/quality (quality_stats): report grades by level (default), writer, unsatisfactory item
 * or organization, basis the grading time. Columns graded, levelA..levelD, unsatisfactory (items
 * named). By item, a row counts the grades naming the item; the totals and periods count grades.
 */
export const qualitySource: StatSource = async (db, req): Promise<StatResult> => {
  await refreshRollups(db, req.bucketIds);
  const [keyed, byPeriod] = await Promise.all([gradeRows(db, req, gradeKey(req)), gradeRowsByPeriod(db, req)]);
  return qualityTable(db, req, keyed, byPeriod);
};

/** The key of the grades' rows: the request's dimension, level by default. */
export function gradeKey(req: StatRequest): GradeKey {
  return req.by === 'item' || req.by === 'doctor' || req.by === 'bucket' ? req.by : 'level';
}

/** The quality table from the grades per key and per period (rows by level, then grades, then key). */
export async function qualityTable(
  db: Db,
  req: StatRequest,
  keyed: readonly GradeCountRow[],
  byPeriod: readonly GradeCountRow[],
): Promise<StatResult> {
  const rows = sumGrades(keyed);
  const periods = sumGrades(byPeriod);
  const totals = Object.fromEntries(COLUMNS.map((c) => [c, 0])) as Record<string, number>;
  for (const v of periods.values()) for (const c of COLUMNS) totals[c]! += v[c]!;
  const names = req.by === 'doctor' ? await accountNames(db, [...rows.keys()]) : new Map<string, string>();
  const order = (key: string) => (req.by === 'level' ? QUALITY_LEVELS.indexOf(key as 'A') : 0);
  return {
    columns: COLUMNS,
    rows: [...rows.entries()]
      .sort(([ka, a], [kb, b]) => order(ka) - order(kb) || b.graded! - a.graded! || ka.localeCompare(kb))
      .map(([key, values]) => ({ key, label: labelOf(req.by, key, names), values })),
    periods: [...periods.entries()].map(([period, values]) => ({ period, values })),
    totals,
  };
}

/** Levels and items are their own labels; a writer its name; an organization '' (the service names it). */
function labelOf(by: string, key: string, names: Map<string, string>): string {
  if (by === 'doctor') return names.get(key) ?? '';
  return by === 'bucket' ? '' : key;
}

export const qualitySources: Partial<Record<StatKind, StatSource>> = { quality: qualitySource };
