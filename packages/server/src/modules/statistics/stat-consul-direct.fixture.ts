import { CONSULTATION_STATUS_VALUES } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import type { StatRequest, StatResult } from './stat-source.js';
import { anyOf, instant, statSets } from './stat-desk-sets.store.js';

/**
 * statistics/consul counted straight from the consultations (test support: the rollup's oracle,
 * stat-consul-rollup.int.test.ts; the statistic itself reads stat_consul, stat-consul-rollup.store.ts).
 * Consultations (consultation_stats), by the time each was asked for: requested (asked by, or of,
 * an organization of the request), completed, cancelled, ratings (the requester's, once) and their
 * average. Rows by the organization (either side) or by the other side; a consultation between two
 * organizations of the request counts once in each's row and once in the periods and totals. A
 * deleted consultation is gone and counts nowhere.
 */
export async function consulDirect(db: Db, req: StatRequest): Promise<StatResult> {
  const side = (mine: 'source' | 'target', other: 'source' | 'target', tag: 'a' | 'b'): SQL => {
    const key = req.by === 'bucket' ? sql.raw(`c.${mine}_bucket_id`) : sql.raw(`c.${other}_bucket_id`);
    const label =
      req.by === 'bucket' ? sql`''` : sql.raw(`(select b.name from buckets b where b.id = c.${other}_bucket_id)`);
    return sql`
      select ${key} as k, ${label} as label, c.id as id, c.created as at, ${sql.raw(`'${tag}'`)} as side, c.status as status,
        c.rating_score as rating
      from consultations c
      where ${anyOf(sql.raw(`c.${mine}_bucket_id`), req.bucketIds)}
        and c.created >= ${instant(req.start)} and c.created < ${instant(req.end)}`;
  };
  return statSets(db, {
    pairs: sql`${side('source', 'target', 'a')} union all ${side('target', 'source', 'b')}`,
    fields: ['status', 'rating'],
    interval: req.interval,
    columns: ['requested', 'completed', 'cancelled', 'ratings', 'ratingAverage'],
    aggs: {
      requested: 'count(*)',
      completed: `count(*) filter (where status = ${CONSULTATION_STATUS_VALUES.completed})`,
      cancelled: `count(*) filter (where status = ${CONSULTATION_STATUS_VALUES.canceled})`,
      ratings: 'count(rating)',
      ratingAverage: 'avg(rating)',
    },
  });
}
