import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { anyOf, firstModality, instant, shapeSets, type SetsLine } from './stat-desk-sets.store.js';
import { hospitalDaySql, periodSql } from './stat-periods.store.js';
import type { StatRequest, StatResult } from './stat-source.js';
import { wholeMinutesSql } from './stat-turnaround-rollup.store.js';
import { REMOTE_COLUMNS } from './sources.remote.js';

/**
 * statistics/remote-report counted straight from the orders (test support: the rollup's oracle,
 * stat-remote-rollup.int.test.ts; the statistic itself reads stat_remote, sources.remote.ts).
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
export async function remoteReportDirect(db: Db, req: StatRequest): Promise<StatResult> {
  // Every order has its exam (orders.exam_id is required, deleted with it): the exam is read only
  // for its modality (a 1,000,000-exam bench spent a third of the statement on those reads).
  const needsModality = req.by === 'modality' || req.modality !== undefined;
  const mine = (col: string) => anyOf(sql.raw(`o.${col}`), req.bucketIds);
  // An order counts once per row key: as sent under the key of its request's side, as received
  // under its target's side; one key on both sides (an organization ordering from itself) is one
  // row for both.
  const keys = (() => {
    if (req.by === 'modality') return sql`select k, a, b, status, minutes from o`;
    const [sent, received] =
      req.by === 'counterpart' ? ['target_bucket_id', 'request_bucket_id'] : ['request_bucket_id', 'target_bucket_id'];
    return sql`select ${sql.raw(sent)} as k, true as a, b and ${sql.raw(`${received} = ${sent}`)} as b, status, minutes
        from o where a
      union all
      select ${sql.raw(received)} as k, false as a, true as b, status, minutes
        from o where b and not (a and ${sql.raw(`${received} = ${sent}`)})`;
  })();
  const label =
    req.by === 'counterpart'
      ? sql`(select b.name from buckets b where b.id = k)`
      : req.by === 'modality'
        ? sql`k`
        : sql`''`;
  const period = periodSql(hospitalDaySql(sql`at`), req.interval);
  const aggs = sql`count(*) filter (where a) as "sent", count(*) filter (where b) as "received",
    count(*) filter (where status = 'reported') as "reported", count(*) filter (where status = 'cancelled') as "cancelled",
    percentile_cont(array[0.5, 0.9]) within group (order by minutes) as q`;
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '32MB'`);
    return tx.execute(sql`
    with o as (
      select o.id, o.created as at, o.status, o.request_bucket_id, o.target_bucket_id,
        ${needsModality ? sql`m.modality` : sql`''`} as k,
        ${mine('request_bucket_id')} as a,
        ${mine('target_bucket_id')} and (o.price_fen = 0 or o.payment_status <> 0) as b,
        case when o.status = 'reported' and o.reported_at is not null
          then ${wholeMinutesSql(sql`coalesce(o.paid_at, o.created)`, sql`o.reported_at`)} end as minutes
      from orders o
      ${needsModality ? sql`join lateral (select ${firstModality(sql`e.modality`)} as modality from exams e where e.id = o.exam_id) m on true` : sql``}
      where (${mine('request_bucket_id')} or (${mine('target_bucket_id')} and (o.price_fen = 0 or o.payment_status <> 0)))
        and o.type <> 'consultation'
        and o.created >= ${instant(req.start)} and o.created < ${instant(req.end)}
        ${req.modality ? sql`and m.modality = ${req.modality}` : sql``}
    ),
    by_key as (select k, ${aggs} from (${keys}) x group by k),
    by_period as (select grouping(p)::int as gp, p, ${aggs} from (select *, ${period} as p from o) x group by grouping sets ((p), ()))
    select 'k' as g, k, ${label} as label, null::text as p, sent, received, reported, cancelled,
      q[1] as "medianMinutes", q[2] as "p90Minutes"
    from by_key
    union all
    select case when gp = 1 then 't' else 'p' end, null::text, null::text, p, sent, received, reported, cancelled,
      q[1], q[2]
    from by_period`);
  });
  return shapeSets((result as unknown as { rows: SetsLine[] }).rows, REMOTE_COLUMNS);
}
