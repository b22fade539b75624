import { HOSPITAL_UTC_OFFSET_MINUTES, type StatColumn, type StatRow, type TurnaroundStep } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import type { StatPeriod, StatRequest, StatResult } from './stat-source.js';
import { accountName, anyOf, instant } from './stat-desk-sets.store.js';
import { hospitalDaySql, periodSql } from './stat-periods.store.js';

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
/** The group's target of the exam's organization (minutes), or null. */
const targetOf = (s: TurnaroundSteps): SQL =>
  hasTarget(s)
    ? sql`(select (g.settings ->> 'turnaroundTargetMinutes')::int from buckets b join groups g on g.id = b.group_id where b.id = s.bucket_id)`
    : sql`null::int`;
const minutesBetween = (a: SQL, b: SQL) => sql`(extract(epoch from ${b} - ${a}) / 60)::float8`;
/** The hour of day (hospital time, 00–23) of an instant. */
const hourSql = (at: SQL) =>
  sql`to_char((${at} at time zone 'UTC') + interval '${sql.raw(String(HOSPITAL_UTC_OFFSET_MINUTES))} minutes', 'HH24')`;

/** The request's filters besides the organizations and the period. */
function filters(req: StatRequest): SQL {
  return sql`${req.modality ? sql`and s.modality = ${req.modality}` : sql``}
    ${req.doctorId ? sql`and s.doctor_id = ${req.doctorId}` : sql``}`;
}

function keyOf(req: StatRequest, steps: TurnaroundSteps): { key: SQL; label: SQL } {
  switch (req.by) {
    case 'room':
      return { key: sql`s.room`, label: sql`s.room` };
    case 'doctor':
      return { key: sql`coalesce(s.doctor_id, '')`, label: accountName('s.doctor_id') };
    case 'hour': {
      const h = hourSql(col(steps.fromStep));
      return { key: h, label: sql`${h} || ':00'` };
    }
    default:
      return { key: sql`s.modality`, label: sql`s.modality` };
  }
}

type Line = { gk: number; gp: number; k: string | null; label: string | null; p: string | null } & Record<
  string,
  string | number | null
>;

const num = (v: string | number | null | undefined): number | null => {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  return Number.isInteger(n) ? n : Math.round(n * 10) / 10;
};

export const TURNAROUND_COLUMNS: StatColumn[] = ['exams', 'medianMinutes', 'p90Minutes', 'overTarget'];

/**
 * statistics/turnaround: the exams whose later step falls in the period (hospital days) in the
 * request's organizations, live, with both steps recorded in order; per row of the dimension, per
 * period of the later step and in total: how many, the median and 90th percentile of the minutes
 * between the steps (percentile_cont, exact), and how many took longer than their group's target.
 */
export async function turnaroundStats(db: Db, req: StatRequest, steps: TurnaroundSteps): Promise<StatResult> {
  const from = col(steps.fromStep);
  const to = col(steps.toStep);
  const { key, label } = keyOf(req, steps);
  const period = periodSql(hospitalDaySql(to), req.interval);
  const result = await db.execute(sql`
    with x as (
      select ${key} as k, ${label} as label, ${period} as p, ${minutesBetween(from, to)} as minutes,
        ${targetOf(steps)} as target
      from exam_steps s
      where ${anyOf(sql`s.bucket_id`, req.bucketIds)} and s.live
        and ${to} >= ${instant(req.start)} and ${to} < ${instant(req.end)}
        and ${from} is not null and ${from} <= ${to}
        ${filters(req)}
    )
    select grouping(k)::int as gk, grouping(p)::int as gp, k, max(label) as label, p,
      count(*) as exams,
      percentile_cont(0.5) within group (order by minutes) as "medianMinutes",
      percentile_cont(0.9) within group (order by minutes) as "p90Minutes",
      count(*) filter (where minutes > target) as "overTarget"
    from x group by grouping sets ((k), (p), ())`);
  const lines = (result as unknown as { rows: Line[] }).rows;
  const values = (l: Line) => Object.fromEntries(TURNAROUND_COLUMNS.map((c) => [c, num(l[c])]));
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

/** The patient's name and accession: the exam's, else the registration's. */
const SLOW_FIELDS = sql`
  s.id, s.exam_id as "examId", s.bucket_id as "bucketId",
  coalesce(e.patient_name, (select p.name from registrations r join registry_patients p on p.id = r.patient_ref
    where r.id = se.registration_id), '') as "patientName",
  coalesce(e.accession_number, se.accession_number, '') as "accessionNumber",
  coalesce(e.is_privacy, false) as "isPrivacy",
  s.modality, s.room, ${accountName('s.doctor_id')} as doctor`;
const SLOW_JOINS = sql`
  left join exams e on e.id = s.exam_id
  left join scheduled_exams se on se.id = s.scheduled_exam_id`;

/** The `limit` slowest exams of the interval whose later step falls in the period, slowest first. */
export async function slowestExams(
  db: Db,
  req: StatRequest,
  steps: TurnaroundSteps,
  limit: number,
): Promise<SlowRow[]> {
  const from = col(steps.fromStep);
  const to = col(steps.toStep);
  const result = await db.execute(sql`
    select * from (
      select ${SLOW_FIELDS}, ${from} as "fromAt", ${to} as "toAt", ${minutesBetween(from, to)} as minutes,
        ${targetOf(steps)} as target
      from exam_steps s ${SLOW_JOINS}
      where ${anyOf(sql`s.bucket_id`, req.bucketIds)} and s.live
        and ${to} >= ${instant(req.start)} and ${to} < ${instant(req.end)}
        and ${from} is not null and ${from} <= ${to}
        ${filters(req)}
      order by ${to} - ${from} desc, s.id
      limit ${limit}
    ) y`);
  return (result as unknown as { rows: SlowRow[] }).rows;
}

/**
 * The exams that reached the earlier step in the period, have not reached the later one and have
 * waited longer than their group's target by `now`, longest first (none without a target).
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
  const result = await db.execute(sql`
    select * from (
      select ${SLOW_FIELDS}, ${from} as "fromAt", null as "toAt", ${minutesBetween(from, instant(now))} as minutes,
        ${targetOf(steps)} as target
      from exam_steps s ${SLOW_JOINS}
      where ${anyOf(sql`s.bucket_id`, req.bucketIds)} and s.live
        and ${from} >= ${instant(req.start)} and ${from} < ${instant(req.end)} and ${to} is null
        ${filters(req)}
    ) y
    where target is not null and minutes > target
    order by minutes desc, id
    limit ${limit}`);
  return (result as unknown as { rows: SlowRow[] }).rows;
}

/** The target of the organizations' groups when they share one (registration to approval only). */
export async function sharedTarget(db: Db, bucketIds: string[], steps: TurnaroundSteps): Promise<number | null> {
  if (!hasTarget(steps) || bucketIds.length === 0) return null;
  const result = await db.execute(sql`
    select distinct (g.settings ->> 'turnaroundTargetMinutes')::int as target
    from buckets b join groups g on g.id = b.group_id
    where ${anyOf(sql`b.id`, bucketIds)}`);
  const rows = (result as unknown as { rows: { target: number | null }[] }).rows;
  return rows.length === 1 && rows[0]!.target !== null ? Number(rows[0]!.target) : null;
}
