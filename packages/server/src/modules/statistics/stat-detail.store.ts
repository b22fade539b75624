import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { firstModality } from './stat-desk-sets.store.js';

/**
 * The SQL of statistics/report-detail: approved reports (status corrected or printed; a recall sets
 * cancelled and leaves them) by their approval time, of live exams. An exam's modality is a
 * backslash list (CT\SR): the first counts. (The overview and the detail's totals are summed from
 * the rollups: statistics-overview.ts, statistics-detail.service.ts.)
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

/** A page of the approved reports of the filter, newest approval first. */
export async function approvedReportPage(
  db: Db,
  f: DetailFilter,
  page: { skip: number; limit: number },
): Promise<DetailRow[]> {
  // The newest of each organization first (its approval index, newest first, read as far as the
  // page needs), then merged: one sort of a year of a group's reports (900,000 at the bench) took
  // 2 s and spilled to disk.
  const list = await db.execute(sql`
      select x.id as "examId", x.bucket_id as "bucketId", b.name as "bucketName",
        x.patient_name as "patientName", x.patient_id as "patientId", x.accession_number as "accessionNumber",
        x.modality as "modality", x.body_part as "bodyPart", x.body_part_count as "bodyPartCount",
        x.is_privacy as "isPrivacy",
        x.creator_id as "writerId", coalesce(nullif(w.name, ''), w.username) as "writerName",
        x.approver_id as "approverId", coalesce(nullif(a.name, ''), a.username) as "approverName",
        x.note_taker_id as "noteTakerId", coalesce(nullif(n.name, ''), n.username) as "noteTakerName",
        x.approved_at as "approvedAt", x.positive as "positive"
      from (select distinct unnest(${textArrayLiteral(f.bucketIds)}::text[]) as id) sb
      cross join lateral (
        select r.id, r.bucket_id, r.creator_id, r.approver_id, r.note_taker_id, r.approved_at,
          (r.content->>'positive')::boolean as positive,
          coalesce((r.content->>'bodyPartCount')::int, e.body_part_count, 1)::int as body_part_count,
          e.patient_name, e.patient_id, e.accession_number, ${firstModality(sql`e.modality`)} as modality,
          e.body_part, e.is_privacy
        from reports r
        join exams e on e.id = r.id
        where r.bucket_id = sb.id and ${approvedWhere(f)}
        order by r.approved_at desc, r.id desc
        limit ${page.skip + page.limit}
      ) x
      join buckets b on b.id = x.bucket_id
      left join accounts w on w.id = x.creator_id
      left join accounts a on a.id = x.approver_id
      left join accounts n on n.id = x.note_taker_id
      order by x.approved_at desc, x.id desc
      limit ${page.limit} offset ${page.skip}`);
  return rowsOf<DetailRow>(list);
}

/** How many approved reports the filter holds, counted from the rows (the rollups count the rest). */
export async function approvedReportCount(db: Db, f: DetailFilter): Promise<number> {
  const count = await db.execute(
    sql`select count(*)::int as n from reports r join exams e on e.id = r.id where ${approvedWhere(f)}`,
  );
  return Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0);
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
