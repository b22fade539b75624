import type { StatInterval } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { hospitalDaySql, periodSql } from './stat-periods.store.js';

/**
 * The SQL of statistics/report-detail and statistics/overview: approved reports (status corrected
 * or printed; a recall sets cancelled and leaves them) by their approval time, and live exams by
 * the time they were received. An exam's modality is a backslash list (CT\SR): the first counts.
 */

export interface DetailFilter {
  bucketIds: readonly string[];
  start: Date;
  end: Date;
  modality?: string | undefined;
  doctorId?: string | undefined;
  /** the doctor as the report's writer (creator) or its approver; either when absent */
  role?: 'written' | 'approved' | undefined;
}

const firstModality = (col: SQL) => sql`split_part(${col}, ${'\\'}, 1)`;
const instant = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The approved reports of the filter (alias r: reports, e: exams). */
function approvedWhere(f: DetailFilter): SQL {
  const parts: SQL[] = [
    sql`r.bucket_id = any(${textArrayLiteral(f.bucketIds)}::text[])`,
    sql`r.status in ('corrected', 'printed')`,
    sql`r.approved_at >= ${instant(f.start)}`,
    sql`r.approved_at < ${instant(f.end)}`,
    sql`e.deleted_time is null`,
  ];
  if (f.modality) parts.push(sql`${firstModality(sql`e.modality`)} = ${f.modality}`);
  if (f.doctorId) {
    if (f.role === 'written') parts.push(sql`r.creator_id = ${f.doctorId}`);
    else if (f.role === 'approved') parts.push(sql`r.approver_id = ${f.doctorId}`);
    else parts.push(sql`(r.creator_id = ${f.doctorId} or r.approver_id = ${f.doctorId})`);
  }
  return sql.join(parts, sql` and `);
}

export interface DetailRow {
  examId: string;
  bucketId: string;
  bucketName: string;
  patientName: string;
  patientId: string;
  accessionNumber: string;
  modality: string;
  bodyPart: string;
  bodyPartCount: number;
  isPrivacy: boolean;
  writerId: string | null;
  writerName: string | null;
  approverId: string | null;
  approverName: string | null;
  noteTakerId: string | null;
  noteTakerName: string | null;
  approvedAt: Date | string;
  positive: boolean | string | null;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The approved reports of the filter, newest approval first, and how many there are. */
export async function approvedReportPage(
  db: Db,
  f: DetailFilter,
  page: { skip: number; limit: number },
): Promise<{ rows: DetailRow[]; total: number }> {
  const where = approvedWhere(f);
  const [list, count] = await Promise.all([
    db.execute(sql`
      select r.id as "examId", r.bucket_id as "bucketId", b.name as "bucketName",
        e.patient_name as "patientName", e.patient_id as "patientId", e.accession_number as "accessionNumber",
        ${firstModality(sql`e.modality`)} as "modality", e.body_part as "bodyPart",
        coalesce((r.content->>'bodyPartCount')::int, e.body_part_count, 1)::int as "bodyPartCount",
        e.is_privacy as "isPrivacy",
        r.creator_id as "writerId", coalesce(nullif(w.name, ''), w.username) as "writerName",
        r.approver_id as "approverId", coalesce(nullif(a.name, ''), a.username) as "approverName",
        r.note_taker_id as "noteTakerId", coalesce(nullif(n.name, ''), n.username) as "noteTakerName",
        r.approved_at as "approvedAt", (r.content->>'positive')::boolean as "positive"
      from reports r
      join exams e on e.id = r.id
      join buckets b on b.id = r.bucket_id
      left join accounts w on w.id = r.creator_id
      left join accounts a on a.id = r.approver_id
      left join accounts n on n.id = r.note_taker_id
      where ${where}
      order by r.approved_at desc, r.id desc
      limit ${page.limit} offset ${page.skip}`),
    db.execute(sql`select count(*)::int as n from reports r join exams e on e.id = r.id where ${where}`),
  ]);
  return { rows: rowsOf<DetailRow>(list), total: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0) };
}

/* ---------- overview ---------- */

export interface ExamCountRow {
  bucketId: string;
  period: string;
  n: number;
}

/** Live exams received in the period (by exams.created), per organization and period. */
export async function examCounts(db: Db, f: DetailFilter, interval: StatInterval): Promise<ExamCountRow[]> {
  const period = periodSql(hospitalDaySql(sql`e.created`), interval);
  const parts: SQL[] = [
    sql`e.bucket_id = any(${textArrayLiteral(f.bucketIds)}::text[])`,
    sql`e.created >= ${instant(f.start)}`,
    sql`e.created < ${instant(f.end)}`,
    sql`e.deleted_time is null`,
  ];
  if (f.modality) parts.push(sql`${firstModality(sql`e.modality`)} = ${f.modality}`);
  const result = await db.execute(sql`
    select e.bucket_id as "bucketId", ${period} as "period", count(*)::int as n
    from exams e where ${sql.join(parts, sql` and `)}
    group by 1, 2`);
  return rowsOf<ExamCountRow>(result).map((r) => ({ ...r, n: Number(r.n) }));
}

export interface ReportCountRow {
  bucketId: string;
  period: string;
  writerId: string | null;
  approverId: string | null;
  n: number;
}

/** Approved reports of the period per organization, period, writer and approver. */
export async function approvedReportCounts(db: Db, f: DetailFilter, interval: StatInterval): Promise<ReportCountRow[]> {
  const period = periodSql(hospitalDaySql(sql`r.approved_at`), interval);
  const result = await db.execute(sql`
    select r.bucket_id as "bucketId", ${period} as "period", r.creator_id as "writerId",
      r.approver_id as "approverId", count(*)::int as n
    from reports r join exams e on e.id = r.id
    where ${approvedWhere(f)}
    group by 1, 2, 3, 4`);
  return rowsOf<ReportCountRow>(result).map((r) => ({ ...r, n: Number(r.n) }));
}

/** The groups whose allowOverview flag is on (unset reads as off: the overview screen is opt-in). */
export async function groupsAllowingOverview(db: Db, groupIds: readonly string[]): Promise<Set<string>> {
  if (groupIds.length === 0) return new Set();
  const result = await db.execute(sql`
    select id from groups
    where id = any(${textArrayLiteral(groupIds)}::text[])
      and coalesce((settings->>'allowOverview')::boolean, false)`);
  return new Set(rowsOf<{ id: string }>(result).map((r) => r.id));
}
