import { CONSULTATION_STATUS_VALUES } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import type { StatRequest, StatResult } from './stat-source.js';
import { anyOf, firstModality, instant, statSets } from './stat-desk-sets.store.js';

/**
 * Remote and expert report orders (remote_report_stats), by the time each order was made; a
 * consultation's fee (type consultation) is no report order and is left out.
 *   sent      orders an organization of the request applied for
 *   received  orders it got as the expert organization, once they reached it (free, or paid; an
 *             unpaid order of a paid product never reached the experts)
 *   reported  orders whose report was published back (status reported)
 *   cancelled orders cancelled
 *   medianMinutes, p90Minutes  from payment (or creation, when free) to the published report, over
 *             the reported orders
 * Rows by the organization of the request, by the other side (counterpart), or by the exam's
 * modality; an order between two organizations of the request counts once in each's row and once
 * in the periods and totals.
 */
export async function remoteReportStats(db: Db, req: StatRequest): Promise<StatResult> {
  // Every order has its exam (orders.exam_id is required, deleted with it): the exam is read only
  // for its modality (a 1,000,000-exam bench spent a third of the statement on those reads).
  const needsModality = req.by === 'modality' || req.modality !== undefined;
  const side = (mine: 'request' | 'target', other: 'request' | 'target', tag: 'a' | 'b'): SQL => {
    const key =
      req.by === 'bucket'
        ? sql.raw(`o.${mine}_bucket_id`)
        : req.by === 'counterpart'
          ? sql.raw(`o.${other}_bucket_id`)
          : sql`m.modality`;
    const label =
      req.by === 'counterpart'
        ? sql.raw(`(select b.name from buckets b where b.id = o.${other}_bucket_id)`)
        : req.by === 'modality'
          ? sql`m.modality`
          : sql`''`;
    return sql`
      select ${key} as k, ${label} as label, o.id as id, o.created as at, ${sql.raw(`'${tag}'`)} as side, o.status as status,
        case when o.status = 'reported' and o.reported_at is not null
          then (extract(epoch from o.reported_at - coalesce(o.paid_at, o.created)) / 60)::float8 end as minutes
      from orders o
      ${needsModality ? sql`join lateral (select ${firstModality(sql`e.modality`)} as modality from exams e where e.id = o.exam_id) m on true` : sql``}
      where ${anyOf(sql.raw(`o.${mine}_bucket_id`), req.bucketIds)}
        and o.type <> 'consultation'
        and o.created >= ${instant(req.start)} and o.created < ${instant(req.end)}
        ${mine === 'target' ? sql`and (o.price_fen = 0 or o.payment_status <> 0)` : sql``}
        ${req.modality ? sql`and m.modality = ${req.modality}` : sql``}`;
  };
  return statSets(db, {
    pairs: sql`${side('request', 'target', 'a')} union all ${side('target', 'request', 'b')}`,
    fields: ['status', 'minutes'],
    interval: req.interval,
    columns: ['sent', 'received', 'reported', 'cancelled', 'medianMinutes', 'p90Minutes'],
    aggs: {
      sent: 'count(*) filter (where a)',
      received: 'count(*) filter (where b)',
      reported: "count(*) filter (where status = 'reported')",
      cancelled: "count(*) filter (where status = 'cancelled')",
      medianMinutes: 'percentile_cont(0.5) within group (order by minutes)',
      p90Minutes: 'percentile_cont(0.9) within group (order by minutes)',
    },
  });
}

/**
 * Consultations (consultation_stats), by the time each was asked for: requested (asked by, or of,
 * an organization of the request), completed, cancelled, ratings (the requester's, once) and their
 * average. Rows by the organization (either side) or by the other side; a consultation between two
 * organizations of the request counts once in each's row and once in the periods and totals. A
 * deleted consultation is gone and counts nowhere.
 */
export async function consulStats(db: Db, req: StatRequest): Promise<StatResult> {
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
