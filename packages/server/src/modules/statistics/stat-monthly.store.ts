import { sql, type SQL } from 'drizzle-orm';
import type { StatInterval } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { periodSql } from './stat-periods.store.js';
import { splitRange } from './stat-range.js';
import type { RollupKey, RollupKind, RollupQuery, RollupSum } from './stat-rollup.store.js';

/**
 * The month-level rollup (issue 26): stat_monthly holds, per organization, kind, month (its first
 * day) and keys, the sums of that month's stat_daily rows, so a year's statistic sums about twelve
 * rows per key instead of 365. It is rebuilt from stat_daily for every month a refresh touched
 * (refreshMonths, in the refresh's transaction), so it is exactly stat_daily summed by month.
 *
 * A range (hospital days) is summed as its whole months from stat_monthly plus the days before the
 * first whole month and after the last one from stat_daily (splitRange): the two parts never
 * overlap, so the sums are those of stat_daily over the range. Periods by day or week need the
 * days, and read stat_daily alone.
 */

/** The months to rebuild: those of the days a refresh recounted, as a relation g(bucket_id, day). */
export async function refreshMonths(db: Db, days: SQL): Promise<void> {
  const months = sql`(select distinct g.bucket_id, date_trunc('month', g.day)::date as month from ${days}) m`;
  await db.execute(sql`delete from stat_monthly s using ${months}
    where s.bucket_id = m.bucket_id and s.month = m.month`);
  await db.execute(sql`insert into stat_monthly (bucket_id, kind, month, k1, k2, k3, n, s)
    select d.bucket_id, d.kind, m.month, d.k1, d.k2, d.k3, sum(d.n), sum(d.s)
    from ${months}
    join stat_daily d on d.bucket_id = m.bucket_id
      and d.day >= m.month and d.day < (m.month + interval '1 month')::date
    group by d.bucket_id, d.kind, m.month, d.k1, d.k2, d.k3`);
}

const KEY_SQL: Record<RollupKey, SQL> = { k1: sql`k1`, k2: sql`k2`, k3: sql`k3`, bucket: sql`bucket_id` };

/** The filters besides the dates, shared by both tables. */
function keysOf(q: RollupQuery): SQL {
  const parts = [
    sql`bucket_id = any(${textArrayLiteral(q.bucketIds)}::text[])`,
    sql`kind = any(${textArrayLiteral(q.kinds)}::text[])`,
  ];
  if (q.k1 !== undefined) parts.push(sql`k1 = ${q.k1}`);
  if (q.k2 !== undefined) parts.push(sql`k2 = ${q.k2}`);
  return sql.join(parts, sql` and `);
}

/**
 * The rows a range sums, from both tables, as a relation r(bucket_id, kind, day, k1, k2, k3, n, s)
 * (a month's row dated its first day). `useMonths` false reads the days alone.
 */
function rangeRows(q: RollupQuery, useMonths: boolean): SQL {
  const parts = useMonths ? splitRange(q.from, q.to) : { months: null, days: [{ from: q.from, to: q.to }] };
  const selects: SQL[] = parts.days.map(
    (d) => sql`select bucket_id, kind, day, k1, k2, k3, n, s from stat_daily
      where ${keysOf(q)} and day between ${d.from}::date and ${d.to}::date`,
  );
  if (parts.months) {
    selects.push(sql`select bucket_id, kind, month as day, k1, k2, k3, n, s from stat_monthly
      where ${keysOf(q)} and month between ${parts.months.from}::date and ${parts.months.to}::date`);
  }
  if (selects.length === 0) {
    return sql`(select bucket_id, kind, day, k1, k2, k3, n, s from stat_daily where false) r`;
  }
  return sql`(${sql.join(selects, sql` union all `)}) r`;
}

function rowsOf<R>(result: unknown): R[] {
  return (result as { rows: R[] }).rows;
}

/** How a range is read: whole months from stat_monthly (the default), or every day from stat_daily. */
export interface SumOptions {
  months?: boolean;
}

/** The sums by kind and key (and a second key: a doctor's rows by modality) over the range. */
export async function sumRolled(
  db: Db,
  q: RollupQuery,
  key: RollupKey,
  sub?: RollupKey,
  { months = true }: SumOptions = {},
): Promise<RollupSum[]> {
  const k = KEY_SQL[key];
  // (a constant may not be grouped by: without a second key, sub is '' outside the grouping)
  const s = sub ? KEY_SQL[sub] : sql`''`;
  const groupBy = sub ? sql`kind, ${k}, ${s}` : sql`kind, ${k}`;
  const rows = rowsOf<{ kind: RollupKind; key: string; sub: string; n: string | number; s: string | number }>(
    await db.execute(sql`select kind, ${k} as key, ${s} as sub, sum(n) as n, sum(s) as s
      from ${rangeRows(q, months)} group by ${groupBy}`),
  );
  return rows.map((r) => ({ kind: r.kind, key: r.key, sub: r.sub, n: Number(r.n), s: Number(r.s) }));
}

/** The sums by kind and period (the chart), and by a key when `sub` names one; months serve periods of a month or a year. */
export async function sumRolledPeriods(
  db: Db,
  q: RollupQuery,
  interval: StatInterval,
  { months = true, sub }: SumOptions & { sub?: RollupKey } = {},
): Promise<{ kind: RollupKind; period: string; sub: string; n: number; s: number }[]> {
  const p = periodSql(sql`day`, interval);
  const useMonths = months && (interval === 'month' || interval === 'year');
  const k = sub ? KEY_SQL[sub] : sql`''`;
  const groupBy = sub ? sql`kind, ${p}, ${k}` : sql`kind, ${p}`;
  const rows = rowsOf<{ kind: RollupKind; period: string; sub: string; n: string | number; s: string | number }>(
    await db.execute(sql`select kind, ${p} as period, ${k} as sub, sum(n) as n, sum(s) as s
      from ${rangeRows(q, useMonths)} group by ${groupBy}`),
  );
  return rows.map((r) => ({ kind: r.kind, period: r.period, sub: r.sub, n: Number(r.n), s: Number(r.s) }));
}
