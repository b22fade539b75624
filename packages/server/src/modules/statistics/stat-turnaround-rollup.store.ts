import { HOSPITAL_UTC_OFFSET_MINUTES, type StatInterval } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { withinMarkedDay, type MarkedDays } from './stat-periods.store.js';
import { splitRange } from './stat-range.js';

/**
 * The rows of a histogram rollup (span d: a day, m: a month's first day) that cover a range of
 * hospital days (both included) exactly once: with `byMonth`, its whole months from month rows and
 * the days around them from day rows; else day rows only.
 */
export function spanConditions(q: { from: string; to: string }, byMonth: boolean): SQL[] {
  const { months, days } = splitRange(q.from, q.to);
  if (!byMonth || !months) return [sql`span = 'd' and day between ${q.from}::date and ${q.to}::date`];
  return [
    sql`span = 'm' and day between ${months.from}::date and ${months.to}::date`,
    ...days.map((r) => sql`span = 'd' and day between ${r.from}::date and ${r.to}::date`),
  ];
}

/**
 * The turnaround rollup (issue 26; schema stat_turnaround, migration 0052): histograms of the whole
 * minutes (rounded up) from registration to approval, per organization, approval day or month,
 * dimension and key, so statistics/turnaround reads a year's medians from a few hundred rows.
 */

/** The dimensions: '-' all (periods and totals), and the rows of each `by`. */
export type TurnaroundDim = '-' | 'm' | 'r' | 'd' | 'h';
export const TURNAROUND_DIM = { modality: 'm', room: 'r', doctor: 'd', hour: 'h' } as const;

/** Started minutes between two instants (the interval rounded up to a whole minute). */
export const wholeMinutesSql = (from: SQL, to: SQL) => sql`ceil(extract(epoch from ${to} - ${from}) / 60)::int`;
/** The hour of day (hospital time, 00–23) of an instant. */
export const hourSql = (at: SQL) =>
  sql`lpad(extract(hour from (${at} at time zone 'UTC') + interval '${sql.raw(String(HOSPITAL_UTC_OFFSET_MINUTES))} minutes')::int::text, 2, '0')`;

/**
 * The statements that rebuild the rollup for the days `g` (a relation g(bucket_id, day) of marked
 * days, in the refresh's transaction): their day rows from exam_steps, then their months' rows
 * from the day rows.
 */
export function recountTurnaround(days: MarkedDays): SQL[] {
  const g = days.g;
  const months = sql`(select distinct g.bucket_id, date_trunc('month', g.day)::date as month from ${g}) mo`;
  return [
    sql`delete from stat_turnaround t using ${g} where t.bucket_id = g.bucket_id and t.span = 'd' and t.day = g.day`,
    sql`insert into stat_turnaround (bucket_id, span, day, dim, key, minutes, counts)
      select bucket_id, 'd', day, dim, key, array_agg(m order by m), array_agg(c order by m)
      from (
        select g.bucket_id, g.day, x.dim, x.key, ${wholeMinutesSql(sql`s.registered_at`, sql`s.approved_at`)} as m,
          count(*)::int as c
        from ${g}
        join exam_steps s on s.bucket_id = g.bucket_id
          and ${withinMarkedDay(sql`s.approved_at`, days)}
        cross join lateral (values ('-', ''), ('m', s.modality), ('r', s.room), ('d', coalesce(s.doctor_id, '')),
          ('h', ${hourSql(sql`s.registered_at`)})) as x(dim, key)
        where s.live and s.registered_at is not null and s.registered_at <= s.approved_at
        group by 1, 2, 3, 4, 5
      ) h
      group by bucket_id, day, dim, key`,
    sql`delete from stat_turnaround t using ${months}
      where t.bucket_id = mo.bucket_id and t.span = 'm' and t.day = mo.month`,
    sql`insert into stat_turnaround (bucket_id, span, day, dim, key, minutes, counts)
      select bucket_id, 'm', month, dim, key, array_agg(m order by m), array_agg(c order by m)
      from (
        select t.bucket_id, mo.month, t.dim, t.key, u.m, sum(u.c)::int as c
        from ${months}
        join stat_turnaround t on t.bucket_id = mo.bucket_id and t.span = 'd'
          and t.day >= mo.month and t.day < (mo.month + interval '1 month')::date
        cross join lateral unnest(t.minutes, t.counts) as u(m, c)
        group by 1, 2, 3, 4, 5
      ) h
      group by bucket_id, month, dim, key`,
  ];
}

/** One histogram row as read. */
export interface HistogramRow {
  bucketId: string;
  /** its day, or its month's first day */
  day: string;
  dim: TurnaroundDim;
  key: string;
  minutes: number[];
  counts: number[];
}

/**
 * The histogram rows of a range (hospital days, both included) of these organizations: the rows
 * of `dim` over the range, and the '-' rows by `interval`'s periods. Whole months come from month
 * rows where the periods allow it (month and year), the other days from day rows; they never overlap.
 */
export async function histogramRows(
  db: Db,
  q: { bucketIds: readonly string[]; from: string; to: string },
  dim: TurnaroundDim,
  interval: StatInterval,
): Promise<HistogramRow[]> {
  const buckets = textArrayLiteral(q.bucketIds);
  const part = (dims: readonly TurnaroundDim[], byMonth: boolean): SQL[] =>
    spanConditions(q, byMonth).map((span) => sql`${span} and dim = any(${textArrayLiteral(dims)}::text[])`);
  const monthly = interval === 'month' || interval === 'year';
  const parts = monthly ? part(['-', dim], true) : [...part([dim], true), ...part(['-'], false)];
  const result = await db.execute(sql`
    select bucket_id as "bucketId", to_char(day, 'YYYY-MM-DD') as day, dim, key, minutes, counts
    from stat_turnaround
    where bucket_id = any(${buckets}::text[]) and (${sql.join(
      parts.map((p) => sql`(${p})`),
      sql` or `,
    )})`);
  return (result as unknown as { rows: HistogramRow[] }).rows.map((r) => ({
    ...r,
    minutes: r.minutes.map(Number),
    counts: r.counts.map(Number),
  }));
}
