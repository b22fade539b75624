import { periodOf, type StatRow } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { refreshRollups } from './stat-rollup.store.js';
import type { StatPeriod, StatRequest, StatResult } from './stat-source.js';
import { addInto, summarize, type Histogram } from './stat-histogram.js';
import { histogramRows, TURNAROUND_DIM, type HistogramRow } from './stat-turnaround-rollup.store.js';
import { statValue } from './stat-desk-sets.store.js';
import {
  bucketTargets,
  doctorNames,
  hasTarget,
  TURNAROUND_COLUMNS,
  turnaroundStats,
  type TurnaroundSteps,
} from './stat-turnaround.store.js';

/**
 * statistics/turnaround (issue 26). Registration to approval without a modality or doctor filter,
 * by modality, room, doctor or hour, is read from the rollup's histograms (stat_turnaround, after
 * the organizations' marked days are recounted); any other interval or filter is counted from
 * exam_steps. Both answer the same (the oracle: stat-turnaround-rollup.int.test.ts).
 */
export async function turnaroundTable(db: Db, req: StatRequest, steps: TurnaroundSteps): Promise<StatResult> {
  const rolled = hasTarget(steps) && !req.modality && !req.doctorId && req.by in TURNAROUND_DIM;
  if (!rolled) return turnaroundStats(db, req, steps);
  await refreshRollups(db, req.bucketIds);
  const dim = TURNAROUND_DIM[req.by as keyof typeof TURNAROUND_DIM];
  const [rows, targets] = await Promise.all([
    histogramRows(db, req, dim, req.interval),
    bucketTargets(db, req.bucketIds),
  ]);
  const groups = (of: (r: HistogramRow) => string | null) => {
    const out = new Map<string, Map<string, Histogram>>();
    for (const r of rows) {
      const g = of(r);
      if (g === null) continue;
      const perBucket = out.get(g) ?? new Map<string, Histogram>();
      out.set(g, perBucket);
      const h = perBucket.get(r.bucketId) ?? new Map<number, number>();
      perBucket.set(r.bucketId, h);
      addInto(h, r);
    }
    return out;
  };
  const values = (perBucket: Map<string, Histogram>) => {
    const s = summarize([...perBucket].map(([bucketId, h]) => ({ h, target: targets.get(bucketId) ?? null })));
    return { exams: s.exams, medianMinutes: statValue(s.median), p90Minutes: statValue(s.p90), overTarget: s.over };
  };
  const byKey = groups((r) => (r.dim === dim ? r.key : null));
  const names =
    req.by === 'doctor'
      ? await doctorNames(
          db,
          [...byKey.keys()].filter((k) => k !== ''),
        )
      : new Map();
  const label = (key: string) => (req.by === 'doctor' ? (names.get(key) ?? '') : req.by === 'hour' ? `${key}:00` : key);
  const out: StatRow[] = [...byKey].map(([key, perBucket]) => ({ key, label: label(key), values: values(perBucket) }));
  if (req.by === 'hour') out.sort((a, b) => a.key.localeCompare(b.key));
  else out.sort((a, b) => (b.values.exams ?? 0) - (a.values.exams ?? 0) || a.label.localeCompare(b.label));
  const byPeriod = groups((r) => (r.dim === '-' ? periodOf(r.day, req.interval) : null));
  const periods: StatPeriod[] = [...byPeriod]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([period, perBucket]) => ({ period, values: values(perBucket) }));
  const all = groups((r) => (r.dim === '-' ? '' : null)).get('');
  return { columns: TURNAROUND_COLUMNS, rows: out, periods, totals: values(all ?? new Map()) };
}
