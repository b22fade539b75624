import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { EMPTY_REPORT_CONTENT, type ReportContent, type SamplePoint } from '@yyp/contracts';
import {
  accounts,
  buckets,
  coExams,
  exams,
  reports,
  reportSampleGraphs,
  reportTraces,
  sampleGraphs,
  type ReportRow,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** All SQL of the reports module (CONVENTIONS 7). */

export async function findReport(db: Db, id: string, forUpdate = false): Promise<ReportRow | undefined> {
  const q = db.select().from(reports).where(eq(reports.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

/** The report row of an exam, created empty (status none) the first time anything writes it. */
export async function ensureReport(db: Db, id: string, bucketId: string, now: Date): Promise<ReportRow> {
  const existing = await findReport(db, id, true);
  if (existing) return existing;
  await db
    .insert(reports)
    .values({ id, bucketId, status: 'none', version: 0, content: EMPTY_REPORT_CONTENT, createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  return (await findReport(db, id, true))!;
}

export type ReportChange = Partial<Omit<typeof reports.$inferInsert, 'id' | 'bucketId' | 'createdAt'>>;

export async function updateReport(db: Db, id: string, change: ReportChange): Promise<ReportRow> {
  const [row] = await db.update(reports).set(change).where(eq(reports.id, id)).returning();
  return row!;
}

export interface TraceInsert {
  id: string;
  reportId: string;
  action: string;
  actorId: string | null;
  actorName: string;
  at: Date;
  statusFrom: string;
  statusTo: string;
  version: number;
  reason: string;
  changed: boolean;
  content: ReportContent;
}

/** A trace step, numbered after the report's last (the caller holds the report row's lock). */
export async function insertTrace(db: Db, t: TraceInsert): Promise<void> {
  await db.insert(reportTraces).values({
    ...t,
    seq: sql`(select coalesce(max(${reportTraces.seq}), 0) + 1 from ${reportTraces} where ${reportTraces.reportId} = ${t.reportId})`,
  });
}

const traceColumns = {
  id: reportTraces.id,
  action: reportTraces.action,
  actorId: reportTraces.actorId,
  actorName: reportTraces.actorName,
  at: reportTraces.at,
  statusFrom: reportTraces.statusFrom,
  statusTo: reportTraces.statusTo,
  version: reportTraces.version,
  reason: reportTraces.reason,
  changed: reportTraces.changed,
};

export async function listTraces(db: Db, reportId: string) {
  return db
    .select(traceColumns)
    .from(reportTraces)
    .where(eq(reportTraces.reportId, reportId))
    .orderBy(asc(reportTraces.seq));
}

export async function findTrace(db: Db, reportId: string, traceId: string) {
  const [row] = await db
    .select({ ...traceColumns, content: reportTraces.content })
    .from(reportTraces)
    .where(and(eq(reportTraces.reportId, reportId), eq(reportTraces.id, traceId)));
  return row;
}

/** The content of the last trace step before this one (what it changed from). */
export async function lastContent(db: Db, reportId: string): Promise<ReportContent | undefined> {
  const [row] = await db
    .select({ content: reportTraces.content })
    .from(reportTraces)
    .where(eq(reportTraces.reportId, reportId))
    .orderBy(desc(reportTraces.seq))
    .limit(1);
  return row?.content;
}

export async function accountNames(db: Db, ids: (string | null | undefined)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => typeof x === 'string'))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: accounts.id, name: accounts.name, username: accounts.username })
    .from(accounts)
    .where(inArray(accounts.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name || r.username]));
}

/** The exam a report belongs to, if it is live. */
export async function liveExam(db: Db, examId: string) {
  const [row] = await db
    .select({ id: exams.id, bucketId: exams.bucketId, patientId: exams.patientId, reportStatus: exams.reportStatus })
    .from(exams)
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)));
  return row;
}

/** A live exam of the bucket and the report it is written in (its primary's), in one statement. */
export async function reportOfExam(db: Db, examId: string, bucketId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ primary: sql<string>`coalesce(${coExams.primaryExamId}, ${exams.id})` })
    .from(exams)
    .leftJoin(coExams, eq(coExams.examId, exams.id))
    .where(and(eq(exams.id, examId), eq(exams.bucketId, bucketId), isNull(exams.deletedTime)));
  return row?.primary;
}

/** The primary exam whose report this exam is written in (itself when not co-written). */
export async function primaryExamOf(db: Db, examId: string): Promise<string> {
  const [row] = await db.select({ primary: coExams.primaryExamId }).from(coExams).where(eq(coExams.examId, examId));
  return row?.primary ?? examId;
}

export async function coExamIdsOf(db: Db, reportId: string): Promise<string[]> {
  const rows = await db
    .select({ id: coExams.examId })
    .from(coExams)
    .where(eq(coExams.primaryExamId, reportId))
    .orderBy(asc(coExams.createdAt), asc(coExams.examId));
  return rows.map((r) => r.id);
}

/** The study list shows each exam's report status: the report's and its co-written exams'. */
export async function setExamsReportStatus(db: Db, reportId: string, status: string, now: Date): Promise<void> {
  await db
    .update(exams)
    .set({ reportStatus: status, updated: now })
    .where(
      sql`${exams.id} = ${reportId} or ${exams.id} in (select ${coExams.examId} from ${coExams} where ${coExams.primaryExamId} = ${reportId})`,
    );
}

/** The reporting worklist: live exams of these buckets still to be written or approved, urgent and own first. */
export async function worklist(
  db: Db,
  opts: { writeBuckets: string[]; approveBuckets: string[]; accountId: string; exclude: string; since: Date },
) {
  const { writeBuckets, approveBuckets } = opts;
  if (writeBuckets.length === 0 && approveBuckets.length === 0) return [];
  const toWrite =
    writeBuckets.length > 0
      ? sql`(${inArray(exams.bucketId, writeBuckets)} and ${exams.reportStatus} in ('none','locked','partial','hold','cancelled') and (${exams.assigneeId} is null or ${exams.assigneeId} = ${opts.accountId}))`
      : sql`false`;
  const toApprove =
    approveBuckets.length > 0
      ? sql`(${inArray(exams.bucketId, approveBuckets)} and ${exams.reportStatus} in ('final','preliminary'))`
      : sql`false`;
  return db
    .select({
      examId: exams.id,
      bucketId: exams.bucketId,
      patientName: exams.patientName,
      isPrivacy: exams.isPrivacy,
      modality: exams.modality,
      bodyPart: exams.bodyPart,
      studyDate: exams.studyDate,
      reportStatus: exams.reportStatus,
      urgent: exams.urgentFlag,
      critical: exams.criticalFlag,
      groupId: sql<string>`(select ${buckets.groupId} from ${buckets} where ${buckets.id} = ${exams.bucketId})`,
    })
    .from(exams)
    .where(
      and(
        isNull(exams.deletedTime),
        sql`${exams.id} <> ${opts.exclude}`,
        sql`${exams.created} >= ${opts.since}`,
        sql`${exams.id} not in (select ${coExams.examId} from ${coExams})`,
        sql`(${toWrite} or ${toApprove})`,
      ),
    )
    .orderBy(desc(exams.urgentFlag), sql`(${exams.assigneeId} = ${opts.accountId}) desc nulls last`, asc(exams.created))
    .limit(20);
}

/* ---------- sample graphs placed on a report ---------- */

export async function placedGraphs(db: Db, reportId: string) {
  return db
    .select({ placement: reportSampleGraphs, graph: sampleGraphs })
    .from(reportSampleGraphs)
    .innerJoin(sampleGraphs, eq(sampleGraphs.id, reportSampleGraphs.sampleGraphId))
    .where(eq(reportSampleGraphs.reportId, reportId))
    .orderBy(asc(reportSampleGraphs.position), asc(reportSampleGraphs.createdAt));
}

export async function sampleGraphIn(db: Db, bucketId: string, id: string) {
  const [row] = await db
    .select()
    .from(sampleGraphs)
    .where(and(eq(sampleGraphs.id, id), eq(sampleGraphs.bucketId, bucketId)));
  return row;
}

export async function placeGraph(
  db: Db,
  row: {
    id: string;
    reportId: string;
    sampleGraphId: string;
    points: SamplePoint[];
    isPrinted: boolean;
    createdBy: string;
  },
  max: number,
): Promise<boolean> {
  // The report's exam row lock serializes placements, so two at once cannot pass the limit.
  await db.execute(sql`select id from ${exams} where ${exams.id} = ${row.reportId} for update`);
  const [{ n }] = (await db
    .select({ n: sql<number>`count(*)::int` })
    .from(reportSampleGraphs)
    .where(eq(reportSampleGraphs.reportId, row.reportId))) as [{ n: number }];
  if (n >= max) return false;
  await db.insert(reportSampleGraphs).values({ ...row, position: n });
  return true;
}

export async function patchPlacement(
  db: Db,
  reportId: string,
  id: string,
  change: { points?: SamplePoint[]; isPrinted?: boolean },
): Promise<boolean> {
  const rows = await db
    .update(reportSampleGraphs)
    .set(change)
    .where(and(eq(reportSampleGraphs.id, id), eq(reportSampleGraphs.reportId, reportId)))
    .returning({ id: reportSampleGraphs.id });
  return rows.length > 0;
}

export async function removePlacement(db: Db, reportId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(reportSampleGraphs)
    .where(and(eq(reportSampleGraphs.id, id), eq(reportSampleGraphs.reportId, reportId)))
    .returning({ id: reportSampleGraphs.id });
  return rows.length > 0;
}

/**
 * The patient's other exams of the same study day in the bucket that nobody has reported or
 * combined yet: candidates to write in this report (autoCheckCombineReport).
 */
export async function combinableExams(db: Db, reportId: string) {
  const [self] = await db
    .select({ bucketId: exams.bucketId, patientId: exams.patientId, studyDate: exams.studyDate })
    .from(exams)
    .where(eq(exams.id, reportId));
  if (!self || !self.patientId || !self.studyDate) return [];
  return db
    .select({ examId: exams.id, modality: exams.modality, bodyPart: exams.bodyPart, studyDate: exams.studyDate })
    .from(exams)
    .where(
      and(
        eq(exams.bucketId, self.bucketId),
        eq(exams.patientId, self.patientId),
        eq(exams.studyDate, self.studyDate),
        isNull(exams.deletedTime),
        inArray(exams.reportStatus, ['none', 'locked']),
        sql`${exams.id} <> ${reportId}`,
        sql`${exams.id} not in (select ${coExams.examId} from ${coExams})`,
        sql`${exams.id} not in (select ${coExams.primaryExamId} from ${coExams})`,
      ),
    )
    .orderBy(asc(exams.created))
    .limit(20);
}
