import { QUALITY_LEVELS, type StatColumn, type StatKind } from '@yyp/contracts';
import { accountNames } from '../reports/index.js';
import type { StatResult, StatSource } from './stat-source.js';
import { gradesBy, gradesByItem, gradesByPeriod, type GradeCountRow } from './stat-quality.store.js';

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

/**
 * statistics/quality (quality_stats): report grades by level (default), writer, unsatisfactory item
 * or organization, basis the grading time. Columns graded, levelA..levelD, unsatisfactory (items
 * named). By item, a row counts the grades naming the item; the totals and periods count grades.
 */
export const qualitySource: StatSource = async (db, req): Promise<StatResult> => {
  const f = req;
  const [keyed, byPeriod] = await Promise.all([
    req.by === 'item'
      ? gradesByItem(db, f)
      : gradesBy(db, f, req.by === 'doctor' || req.by === 'bucket' ? req.by : 'level'),
    gradesByPeriod(db, f, req.interval),
  ]);
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
};

/** Levels and items are their own labels; a writer its name; an organization '' (the service names it). */
function labelOf(by: string, key: string, names: Map<string, string>): string {
  if (by === 'doctor') return names.get(key) ?? '';
  return by === 'bucket' ? '' : key;
}

export const qualitySources: Partial<Record<StatKind, StatSource>> = { quality: qualitySource };
