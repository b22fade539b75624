import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { firstModality } from './stat-desk-sets.store.js';
import { withinMarkedDay, type MarkedDays } from './stat-periods.store.js';
import type { StatRequest } from './stat-source.js';
import { spanConditions, wholeMinutesSql } from './stat-turnaround-rollup.store.js';

/**
 * The remote-report rollup (issue 26; schema stat_remote, migration 0054): report orders per
 * organization, side, other organization, day or month, modality and whether they reached the
 * experts, with the reported ones' whole minutes as a histogram, so statistics/remote-report
 * reads a year from a few hundred rows, exactly.
 */

/** The columns a row is keyed by below its organization and span. */
const KEYS = 'bucket_id, day, side, other_bucket_id, modality, reached';

/**
 * Rows d(KEYS, orders, reported, cancelled, m, n) into stat_remote as span `span`: the sums of the
 * counts, and the histogram of m (whole minutes; n how many; rows with m null add no entry).
 */
function insertRows(d: SQL, span: 'd' | 'm'): SQL {
  return sql`with d as (${d}),
    c as (
      select ${sql.raw(KEYS)}, sum(orders)::int as orders, sum(reported)::int as reported,
        sum(cancelled)::int as cancelled
      from d group by ${sql.raw(KEYS)}
    ),
    h as (
      select ${sql.raw(KEYS)}, array_agg(m order by m) as minutes, array_agg(n order by m) as counts
      from (select ${sql.raw(KEYS)}, m, sum(n)::int as n from d where m is not null group by ${sql.raw(KEYS)}, m) z
      group by ${sql.raw(KEYS)}
    )
    insert into stat_remote (bucket_id, span, day, side, other_bucket_id, modality, reached, orders, reported, cancelled,
      minutes, counts)
    select c.bucket_id, ${span}, c.day, c.side, c.other_bucket_id, c.modality, c.reached, c.orders, c.reported,
      c.cancelled, coalesce(h.minutes, '{}'), coalesce(h.counts, '{}')
    from c left join h using (${sql.raw(KEYS)})`;
}

/**
 * The statements that rebuild the rollup for the days `g` (a relation g(bucket_id, day) of marked
 * days, in the refresh's transaction): each organization's day rows from its orders on either
 * side, then their months' rows from the day rows.
 */
export function recountRemote(days: MarkedDays): SQL[] {
  const g = days.g;
  const side = (mine: string, other: string, tag: 's' | 'r') => sql`
    select g.bucket_id, g.day, ${tag} as side, o.${sql.raw(other)} as other_bucket_id, o.exam_id, o.price_fen,
      o.payment_status, o.status, o.reported_at, o.paid_at, o.created
    from ${g}
    join orders o on o.${sql.raw(mine)} = g.bucket_id
      and ${withinMarkedDay(sql`o.created`, days)}
    where o.type <> 'consultation'`;
  const orderRows = sql`
    select o.bucket_id, o.day, o.side, o.other_bucket_id, coalesce(${firstModality(sql`e.modality`)}, '') as modality,
      (o.price_fen = 0 or o.payment_status <> 0) as reached,
      1 as orders, (o.status = 'reported')::int as reported, (o.status = 'cancelled')::int as cancelled,
      case when o.status = 'reported' and o.reported_at is not null
        then ${wholeMinutesSql(sql`coalesce(o.paid_at, o.created)`, sql`o.reported_at`)} end as m, 1 as n
    from (${side('request_bucket_id', 'target_bucket_id', 's')} union all ${side('target_bucket_id', 'request_bucket_id', 'r')}) o
    join exams e on e.id = o.exam_id`;
  const months = sql`(select distinct g.bucket_id, date_trunc('month', g.day)::date as month from ${g}) mo`;
  // the month's day rows, each histogram entry one row (m null: the row's counts, once)
  const dayRows = sql`
    select t.bucket_id, mo.month as day, t.side, t.other_bucket_id, t.modality, t.reached,
      t.orders, t.reported, t.cancelled, null::int as m, 0 as n
    from ${months}
    join stat_remote t on t.bucket_id = mo.bucket_id and t.span = 'd'
      and t.day >= mo.month and t.day < (mo.month + interval '1 month')::date
    union all
    select t.bucket_id, mo.month, t.side, t.other_bucket_id, t.modality, t.reached, 0, 0, 0, u.m, u.c
    from ${months}
    join stat_remote t on t.bucket_id = mo.bucket_id and t.span = 'd'
      and t.day >= mo.month and t.day < (mo.month + interval '1 month')::date
    cross join lateral unnest(t.minutes, t.counts) as u(m, c)`;
  return [
    sql`delete from stat_remote t using ${g} where t.bucket_id = g.bucket_id and t.span = 'd' and t.day = g.day`,
    insertRows(orderRows, 'd'),
    sql`delete from stat_remote t using ${months} where t.bucket_id = mo.bucket_id and t.span = 'm' and t.day = mo.month`,
    insertRows(dayRows, 'm'),
  ];
}

/** One rollup row as read: an organization's orders on one side, of one day or month. */
export interface RemoteRow {
  bucketId: string;
  side: 's' | 'r';
  otherBucketId: string;
  /** its day, or its month's first day */
  day: string;
  modality: string;
  reached: boolean;
  orders: number;
  reported: number;
  cancelled: number;
  minutes: number[];
  counts: number[];
}

/**
 * The rows of a range (hospital days, both included) that count for these organizations: their
 * orders as the side that applied, and those that reached them as the side asked, unless the
 * applying side is one of them too (the order is then read once, as applied for). Whole months
 * come from month rows where the periods allow it (month and year), the other days from day rows.
 */
export async function remoteRows(
  db: Db,
  q: Pick<StatRequest, 'bucketIds' | 'from' | 'to' | 'modality' | 'interval'>,
): Promise<RemoteRow[]> {
  const buckets = textArrayLiteral(q.bucketIds);
  const spans = spanConditions(q, q.interval === 'month' || q.interval === 'year');
  const result = await db.execute(sql`
    select bucket_id as "bucketId", side, other_bucket_id as "otherBucketId", to_char(day, 'YYYY-MM-DD') as day,
      modality, reached, orders, reported, cancelled, minutes, counts
    from stat_remote
    where bucket_id = any(${buckets}::text[])
      and (${sql.join(
        spans.map((s) => sql`(${s})`),
        sql` or `,
      )})
      and (side = 's' or (reached and not other_bucket_id = any(${buckets}::text[])))
      ${q.modality !== undefined ? sql`and modality = ${q.modality}` : sql``}`);
  return (result as unknown as { rows: RemoteRow[] }).rows.map((r) => ({
    ...r,
    minutes: r.minutes.map(Number),
    counts: r.counts.map(Number),
  }));
}
