import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { recountDesk } from './stat-desk-rollup.store.js';
import { firstModality as firstOf } from './stat-desk-sets.store.js';
import { refreshMonths } from './stat-monthly.store.js';
import { hospitalDaysSpan, withinMarkedDay, type MarkedDays } from './stat-periods.store.js';
import type { StatRequest } from './stat-source.js';
import { recountQuality } from './stat-quality-rollup.store.js';
import { recountRemote } from './stat-remote-rollup.store.js';
import { recountConsul } from './stat-consul-rollup.store.js';
import { recountRevenue } from './stat-money.store.js';
import { recountTurnaround } from './stat-turnaround-rollup.store.js';

/**
 * The daily rollups of exams and reports (issue 26: "incremental rollups per organization, day and
 * dimension ... exact, never sampled"). stat_daily holds, per organization and hospital day, one
 * row per kind and keys (k1 a person, k2 a modality, k3 a body part; '' for none):
 *
 *   ex  live exams by the day they were received (exams.created)  k1 k2    n exams,   s body parts
 *       (k1 the device of the exam's first scheduled exam, '' for none: device workload)
 *   rw  approved reports by approval day, under their creator     k1 k2    n reports, s body parts
 *   ra  approved reports by approval day, under their approver    k1 k2    n reports, s body parts
 *   rp  approved reports with the positive flag set, creator      k1 k2 k3 n reports, s positive
 *   nt  approved reports with a note-taker                        k1       n reports, s body parts
 *   rg, rm, ar  the front desk's registrations and arrivals (stat-desk-rollup.store.ts)
 *   qg, qi      report grades and their unsatisfactory items (stat-quality-rollup.store.ts)
 *
 * Approved: status corrected or printed with an approval time (a recall's cancelled leaves the
 * counts), of a live exam. Modality: the first of the exam's backslash list. Body parts: the
 * report's bodyPartCount, else the exam's, else 1. Triggers (migration 0043) mark the
 * (organization, day) pairs a write touches in stat_dirty; refreshRollups recounts them from the
 * raw rows before a statistic sums stat_daily.
 */
export type RollupKind = 'ex' | 'rw' | 'ra' | 'rp' | 'nt' | DeskRollupKind | 'qg' | 'qi';
/** the front desk's kinds (stat-desk-rollup.store.ts) */
export type DeskRollupKind = 'rg' | 'rm' | 'ar';

/** the first modality of the exam's list (CT\SR counts as CT) */
const firstModality = firstOf(sql`e.modality`);
/** body parts: the report's count, the exam's, or one */
const bodyParts = sql`coalesce(case when jsonb_typeof(r.content -> 'bodyPartCount') = 'number'
  then (r.content ->> 'bodyPartCount')::int end, e.body_part_count, 1)`;
const APPROVED = sql`r.status in ('corrected', 'printed') and r.approved_at is not null`;

function rowsOf<R>(result: unknown): R[] {
  return (result as { rows: R[] }).rows;
}

/** The days to recount as a relation g(bucket_id, day). */
function daysRelation(days: readonly { bucketId: string; day: string }[]): SQL {
  const b = textArrayLiteral(days.map((d) => d.bucketId));
  const d = textArrayLiteral(days.map((x) => x.day));
  return sql`unnest(${b}::text[], ${d}::date[]) as g(bucket_id, day)`;
}

/**
 * Recounts ex for these days from the exams (and their reports' body-part counts), under the device
 * of the exam's first scheduled exam (k1; '' for none).
 */
function recountExams(days: MarkedDays): SQL {
  const g = days.g;
  return sql`insert into stat_daily (bucket_id, kind, day, k1, k2, n, s)
    select g.bucket_id, 'ex', g.day, coalesce(se.device_id, ''), ${firstModality}, count(*), sum(${bodyParts})
    from ${g}
    join exams e on e.bucket_id = g.bucket_id and ${withinMarkedDay(sql`e.created`, days)}
    left join reports r on r.id = e.id
    left join lateral (select s.device_id from scheduled_exams s where s.exam_id = e.id
      order by s.created, s.id limit 1) se on true
    where e.deleted_time is null
    group by g.bucket_id, g.day, coalesce(se.device_id, ''), ${firstModality}`;
}

/** Recounts rw, ra, rp and nt for these days from the approved reports. */
function recountReports(days: MarkedDays): SQL {
  const g = days.g;
  return sql`insert into stat_daily (bucket_id, kind, day, k1, k2, k3, n, s)
    select a.bucket_id, x.kind, a.day, x.k1, x.k2, x.k3, count(*), sum(x.v)
    from (
      select r.bucket_id, g.day, ${firstModality} as m, e.body_part as part, r.creator_id, r.approver_id,
        r.note_taker_id, ${bodyParts} as bp,
        case when jsonb_typeof(r.content -> 'positive') = 'boolean' then (r.content ->> 'positive')::boolean end as positive
      from ${g}
      join reports r on r.bucket_id = g.bucket_id
        and ${withinMarkedDay(sql`r.approved_at`, days)}
      join exams e on e.id = r.id and e.deleted_time is null
      where ${APPROVED}
    ) a
    cross join lateral (values
      ('rw', coalesce(a.creator_id, ''), a.m, '', a.bp),
      ('ra', coalesce(a.approver_id, ''), a.m, '', a.bp),
      ('rp', case when a.positive is not null then coalesce(a.creator_id, '') end, a.m, a.part,
        case when a.positive then 1 else 0 end),
      ('nt', a.note_taker_id, '', '', a.bp)
    ) as x(kind, k1, k2, k3, v)
    where x.k1 is not null
    group by a.bucket_id, x.kind, a.day, x.k1, x.k2, x.k3`;
}

/**
 * Brings stat_daily up to date for these organizations: in one transaction, takes their marks
 * (in (organization, day) order, the order writers mark in; a mark still held by a writer's open
 * transaction is waited for, so its change is seen), deletes those days' rows and recounts them.
 * A mark the background recount (refreshMarked) holds is waited for too: once it commits the mark
 * is gone and its days are counted.
 */
export async function refreshRollups(db: Db, bucketIds: readonly string[]): Promise<number> {
  const buckets = textArrayLiteral(bucketIds);
  const pending = rowsOf<{ one: number }>(
    await db.execute(sql`select 1 as one from stat_dirty where bucket_id = any(${buckets}::text[]) limit 1`),
  );
  if (pending.length === 0) return 0;
  return recountMarks(
    db,
    sql`select bucket_id, day from stat_dirty where bucket_id = any(${buckets}::text[])
      order by bucket_id, day for update`,
  );
}

/**
 * The background recount (app.ts, every STAT_REFRESH_INTERVAL_MS): at most `limit` marked days of
 * any organization, in (organization, day) order, passing over marks a writer or a reader holds,
 * so a statistic read later finds little or nothing left to recount. Answers the days recounted.
 */
export async function refreshMarked(db: Db, limit: number): Promise<number> {
  // One organization per step, so that the step's days span a month at most, not a year of two.
  return recountMarks(
    db,
    sql`select bucket_id, day from stat_dirty
      where bucket_id = (select bucket_id from stat_dirty order by bucket_id, day limit 1 for update skip locked)
      order by day limit ${limit} for update skip locked`,
  );
}

/** Takes the marks `marks` selects (locked), deletes those days' rows and recounts them, in one transaction. */
async function recountMarks(db: Db, marks: SQL): Promise<number> {
  return db.transaction(async (tx) => {
    const days = rowsOf<{ bucketId: string; day: string }>(
      await tx.execute(sql`delete from stat_dirty where (bucket_id, day) in (${marks})
        returning bucket_id as "bucketId", to_char(day, 'YYYY-MM-DD') as day`),
    );
    if (days.length === 0) return 0;
    const g = daysRelation(days);
    const sorted = days.map((d) => d.day).sort();
    const marked: MarkedDays = { g, ...hospitalDaysSpan(sorted[0]!, sorted[sorted.length - 1]!) };
    await tx.execute(sql`delete from stat_daily s using ${g} where s.bucket_id = g.bucket_id and s.day = g.day`);
    await tx.execute(recountExams(marked));
    await tx.execute(recountReports(marked));
    for (const statement of [
      ...recountDesk(marked),
      ...recountQuality(marked),
      ...recountTurnaround(marked),
      ...recountRemote(marked),
      ...recountRevenue(marked),
      ...recountConsul(marked),
    ]) {
      await tx.execute(statement);
    }
    await refreshMonths(tx, g);
    return days.length;
  });
}

/** Which rows of stat_daily a statistic sums. */
export interface RollupQuery {
  bucketIds: readonly string[];
  /** hospital days, both included */
  from: string;
  to: string;
  kinds: readonly RollupKind[];
  /** only this person (k1) */
  k1?: string | undefined;
  /** only this modality (k2) */
  k2?: string | undefined;
}

/** The rollup rows of a request's organizations and days, of these kinds, with these keys only. */
export function rollupQuery(
  req: { bucketIds: readonly string[] } & Pick<StatRequest, 'from' | 'to'>,
  kinds: readonly RollupKind[],
  keys: Pick<RollupQuery, 'k1' | 'k2'> = {},
): RollupQuery {
  return { bucketIds: req.bucketIds, from: req.from, to: req.to, kinds, ...keys };
}

/** What the rows are grouped by: a key column, the organization, or nothing (the totals). */
export type RollupKey = 'k1' | 'k2' | 'k3' | 'bucket';

export interface RollupSum {
  kind: RollupKind;
  key: string;
  sub: string;
  n: number;
  s: number;
}
