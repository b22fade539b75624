import { type StatColumn, type StatRow, type TurnaroundStep } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import type { StatPeriod, StatRequest, StatResult } from './stat-source.js';
import { accountName, anyOf, instant, statValue } from './stat-desk-sets.store.js';
import { hospitalDaySql, periodSql } from './stat-periods.store.js';
import { hourSql, wholeMinutesSql } from './stat-turnaround-rollup.store.js';

/** The exam_steps column of each step (constants: never user input; migration 0045). */
const STEP_COLUMN: Record<TurnaroundStep, string> = {
  registered: 'registered_at',
  arrived: 'arrived_at',
  called: 'called_at',
  performed: 'performed_at',
  firstSaved: 'first_saved_at',
  submitted: 'submitted_at',
  approved: 'approved_at',
  printed: 'printed_at',
  published: 'published_at',
  shareViewed: 'share_viewed_at',
};

export interface TurnaroundSteps {
  fromStep: TurnaroundStep;
  toStep: TurnaroundStep;
}

/** Only registration to approval has a target (the group's turnaroundTargetMinutes) so far. */
export const hasTarget = (s: TurnaroundSteps) => s.fromStep === 'registered' && s.toStep === 'approved';

const col = (step: TurnaroundStep) => sql.raw(`s.${STEP_COLUMN[step]}`);
/** Each organization's group's target (minutes; null without one) as rows (bucket_id, target). */
const targetRows = (bucketIds: readonly string[]): SQL =>
  sql`select b.id as bucket_id, (g.settings ->> 'turnaroundTargetMinutes')::int as target
    from buckets b join groups g on g.id = b.group_id where ${anyOf(sql`b.id`, bucketIds)}`;
/**
 * The organizations' targets for these steps (null but for registration to approval), joined to
 * the exams by organization: a handful of rows read once, where a subquery per exam cost a year's
 * million exams seconds.
 */
const targetsOf = (req: StatRequest, s: TurnaroundSteps): SQL =>
  hasTarget(s)
    ? targetRows(req.bucketIds)
    : sql`select b.id as bucket_id, null::int as target from buckets b where ${anyOf(sql`b.id`, req.bucketIds)}`;
const minutesBetween = (a: SQL, b: SQL) => sql`(extract(epoch from ${b} - ${a}) / 60)::float8`;
/**
 * An exam_steps row s of the interval whose later step falls in the period, live, with both steps
 * recorded in order, passing the request's filters (the organization is the caller's to name).
 */
function inPeriod(req: StatRequest, steps: TurnaroundSteps): SQL {
  const from = col(steps.fromStep);
  const to = col(steps.toStep);
  return sql`s.live and ${to} >= ${instant(req.start)} and ${to} < ${instant(req.end)}
    and ${from} is not null and ${from} <= ${to}
    ${filters(req)}`;
}

/** The exams of the interval whose later step falls in the period, with their organization's target. */
const examsOf = (req: StatRequest, steps: TurnaroundSteps): SQL =>
  sql`exam_steps s join t on t.bucket_id = s.bucket_id
    where ${anyOf(sql`s.bucket_id`, req.bucketIds)} and ${inPeriod(req, steps)}`;

/** The request's filters besides the organizations and the period. */
function filters(req: StatRequest): SQL {
  return sql`${req.modality ? sql`and s.modality = ${req.modality}` : sql``}
    ${req.doctorId ? sql`and s.doctor_id = ${req.doctorId}` : sql``}`;
}

/** The row's key per exam, and its label from the key once grouped (y.k). */
function keyOf(req: StatRequest, steps: TurnaroundSteps): { key: SQL; label: SQL } {
  switch (req.by) {
    case 'room':
      return { key: sql`s.room`, label: sql`y.k` };
    case 'doctor':
      return { key: sql`coalesce(s.doctor_id, '')`, label: accountName('y.k') };
    case 'hour':
      return { key: hourSql(col(steps.fromStep)), label: sql`y.k || ':00'` };
    default:
      return { key: sql`s.modality`, label: sql`y.k` };
  }
}

type Line = { gk: number; gp: number; k: string | null; label: string | null; p: string | null } & Record<
  string,
  string | number | null
>;

export const TURNAROUND_COLUMNS: StatColumn[] = ['exams', 'medianMinutes', 'p90Minutes', 'overTarget'];

/**
 * statistics/turnaround, counted from exam_steps: the exams whose later step falls in the period
 * (hospital days) in the request's organizations, live, with both steps recorded in order; per row
 * of the dimension, per period of the later step and in total: how many, the median and 90th
 * percentile (percentile_cont, exact) of the started minutes between the steps (the interval
 * rounded up to a whole minute, as the rollup counts them: stat-turnaround-rollup.store.ts), and
 * how many took longer than their group's target.
 */
export async function turnaroundStats(db: Db, req: StatRequest, steps: TurnaroundSteps): Promise<StatResult> {
  const from = col(steps.fromStep);
  const to = col(steps.toStep);
  const { key, label } = keyOf(req, steps);
  const period = periodSql(hospitalDaySql(to), req.interval);
  // One sort per grouping set gives both percentiles (the array form); a year of a group's exams
  // sorts in memory with 64 MB (it spilled to disk with the default 4 MB).
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '64MB'`);
    return tx.execute(sql`
    with t as (${targetsOf(req, steps)}),
    x as (
      select ${key} as k, ${period} as p, ${wholeMinutesSql(from, to)} as minutes, t.target
      from ${examsOf(req, steps)}
    ),
    y as (
      select grouping(k)::int as gk, grouping(p)::int as gp, k, p, count(*) as exams,
        percentile_cont(array[0.5, 0.9]) within group (order by minutes) as q,
        count(*) filter (where minutes > target) as "overTarget"
      from x group by grouping sets ((k), (p), ())
    )
    select y.gk, y.gp, y.k, case when y.gk = 0 then ${label} end as label, y.p, y.exams,
      y.q[1] as "medianMinutes", y.q[2] as "p90Minutes", y."overTarget"
    from y`);
  });
  const lines = (result as unknown as { rows: Line[] }).rows;
  const values = (l: Line) => Object.fromEntries(TURNAROUND_COLUMNS.map((c) => [c, statValue(l[c])]));
  const rows: StatRow[] = lines
    .filter((l) => l.gk === 0)
    .map((l) => ({ key: l.k ?? '', label: l.label ?? '', values: values(l) }));
  if (req.by === 'hour') rows.sort((a, b) => a.key.localeCompare(b.key));
  else rows.sort((a, b) => (b.values.exams ?? 0) - (a.values.exams ?? 0) || a.label.localeCompare(b.label));
  const periods: StatPeriod[] = lines
    .filter((l) => l.gk === 1 && l.gp === 0)
    .map((l) => ({ period: l.p!, values: values(l) }));
  const total = lines.find((l) => l.gk === 1 && l.gp === 1);
  return { columns: TURNAROUND_COLUMNS, rows, periods, totals: total ? values(total) : {} };
}

export interface SlowRow {
  id: string;
  examId: string | null;
  bucketId: string;
  patientName: string;
  accessionNumber: string;
  isPrivacy: boolean;
  modality: string;
  room: string;
  doctor: string;
  fromAt: Date | string;
  toAt: Date | string | null;
  minutes: number | string;
  target: number | null;
}

/**
 * A list's exams (`top`: at most `limit` rows of exam_steps s with "fromAt", "toAt", minutes,
 * target and rank, the list's order being rank descending, then id) with their patient's name and accession (the exam's, else the
 * registration's) and doctor, read for those rows only: joined before the ranking, a year of
 * exams cost seconds.
 */
async function listed(db: Db, req: StatRequest, steps: TurnaroundSteps, top: SQL): Promise<SlowRow[]> {
  const result = await db.execute(sql`
    with t as (${targetsOf(req, steps)}),
    top as (${top})
    select s.id, s.exam_id as "examId", s.bucket_id as "bucketId",
      coalesce(e.patient_name, (select p.name from registrations r join registry_patients p on p.id = r.patient_ref
        where r.id = se.registration_id), '') as "patientName",
      coalesce(e.accession_number, se.accession_number, '') as "accessionNumber",
      coalesce(e.is_privacy, false) as "isPrivacy",
      s.modality, s.room, ${accountName('s.doctor_id')} as doctor,
      top."fromAt", top."toAt", top.minutes, top.target
    from top join exam_steps s on s.id = top.id
      left join exams e on e.id = s.exam_id
      left join scheduled_exams se on se.id = s.scheduled_exam_id
    order by top.rank desc, top.id`);
  return (result as unknown as { rows: SlowRow[] }).rows;
}

/**
 * The `limit` first rows of each organization (`perBucket`: exam_steps s of the organization
 * t.bucket_id, in the list's order, with "fromAt", "toAt", minutes, target and rank), merged: the
 * list's `limit` first. Each organization's rows come from its own index (migration 0053), where
 * one sort of a year of a group's exams took seconds.
 */
const mergedTop = (perBucket: SQL, limit: number): SQL => sql`
  select x.* from t cross join lateral (${perBucket} limit ${limit}) x
  order by x.rank desc, x.id
  limit ${limit}`;

/** The `limit` slowest exams of the interval whose later step falls in the period, slowest first. */
export async function slowestExams(
  db: Db,
  req: StatRequest,
  steps: TurnaroundSteps,
  limit: number,
): Promise<SlowRow[]> {
  const from = col(steps.fromStep);
  const to = col(steps.toStep);
  return listed(
    db,
    req,
    steps,
    mergedTop(
      sql`select s.id, ${from} as "fromAt", ${to} as "toAt", ${minutesBetween(from, to)} as minutes, t.target,
          ${to} - ${from} as rank
        from exam_steps s
        where s.bucket_id = t.bucket_id and ${inPeriod(req, steps)}
        order by ${to} - ${from} desc, s.id`,
      limit,
    ),
  );
}

/**
 * The exams that reached the earlier step in the period, have not reached the later one and have
 * waited longer than their group's target by `now`, longest (earliest) first (none without a target).
 */
export async function overdueExams(
  db: Db,
  req: StatRequest,
  steps: TurnaroundSteps,
  now: Date,
  limit: number,
): Promise<SlowRow[]> {
  if (!hasTarget(steps)) return [];
  const from = col(steps.fromStep);
  const to = col(steps.toStep);
  const minutes = minutesBetween(from, instant(now));
  return listed(
    db,
    req,
    steps,
    mergedTop(
      sql`select s.id, ${from} as "fromAt", null::timestamptz as "toAt", ${minutes} as minutes, t.target,
          ${minutes} as rank
        from exam_steps s
        where s.bucket_id = t.bucket_id and s.live
          and ${from} >= ${instant(req.start)} and ${from} < ${instant(req.end)} and ${to} is null
          and t.target is not null and ${minutes} > t.target
          ${filters(req)}
        order by ${from}, s.id`,
      limit,
    ),
  );
}

/** The target (minutes, or null) of each organization's group, for registration to approval. */
export async function bucketTargets(db: Db, bucketIds: readonly string[]): Promise<Map<string, number | null>> {
  const result = await db.execute(targetRows(bucketIds));
  const rows = (result as unknown as { rows: { bucket_id: string; target: number | string | null }[] }).rows;
  return new Map(rows.map((r) => [r.bucket_id, r.target === null ? null : Number(r.target)]));
}

/** The target of the organizations' groups when they share one (registration to approval only). */
export async function sharedTarget(db: Db, bucketIds: string[], steps: TurnaroundSteps): Promise<number | null> {
  if (!hasTarget(steps) || bucketIds.length === 0) return null;
  const targets = new Set((await bucketTargets(db, bucketIds)).values());
  const [only] = targets;
  return targets.size === 1 && only !== undefined ? only : null;
}

/** The display names (the username when an account has none) of these accounts, by id. */
export async function doctorNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const result = await db.execute(sql`
    select x.id, coalesce(nullif(x.name, ''), x.username) as name from accounts x where ${anyOf(sql`x.id`, ids)}`);
  const rows = (result as unknown as { rows: { id: string; name: string }[] }).rows;
  return new Map(rows.map((r) => [r.id, r.name]));
}
