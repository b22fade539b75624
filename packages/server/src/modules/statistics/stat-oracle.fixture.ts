import { hospitalDayStart } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import type { prng } from './stat-rollup.fixture.js';
import { refreshMarked, refreshRollups } from './stat-rollup.store.js';
import type { StatRequest, StatResult } from './stat-source.js';

/**
 * What the rollup oracles share (test support): the request over hospital days, the answer in a
 * comparable shape, and the random writes with the rollups refreshed between them.
 */

/** A statistic's request over hospital days `from`..`to` (both included) for these organizations. */
export function dayRequest(
  q: Pick<StatRequest, 'kind' | 'by' | 'interval' | 'from' | 'to' | 'bucketIds'> &
    Partial<Pick<StatRequest, 'modality' | 'doctorId'>>,
): StatRequest {
  const start = hospitalDayStart(q.from);
  const end = new Date(hospitalDayStart(q.to).getTime() + 86_400_000);
  return { version: 'simple', start, end, ...q };
}

/** An answer in a comparable shape: rows by key, periods by period (their order is the service's). */
export function shape(r: StatResult) {
  return {
    columns: r.columns,
    rows: Object.fromEntries(r.rows.map((x) => [x.key, { label: x.label, values: x.values }])),
    periods: Object.fromEntries(r.periods.map((p) => [p.period, p.values])),
    totals: r.totals,
  };
}

/**
 * `n` random writes with reads between: a statistic's refresh of the organizations every 19th
 * write and a background step of a few days every 13th, so later writes hit days already counted.
 */
export async function writeWithRefreshes(
  db: Db,
  bucketIds: readonly string[],
  rnd: ReturnType<typeof prng>,
  n: number,
  write: (rnd: ReturnType<typeof prng>) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < n; i++) {
    await write(rnd);
    if (i % 19 === 18) await refreshRollups(db, bucketIds);
    if (i % 13 === 12) await refreshMarked(db, 4);
  }
}
