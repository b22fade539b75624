import { and, desc, eq, gte, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import { buckets, coExams, criticalValues, exams, notifications } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { examNotificationRows, type ExamNotificationInput } from '../notifications/index.js';

/** All SQL of critical values (CONVENTIONS 7). */

export type CriticalValueRow = typeof criticalValues.$inferSelect;

/**
 * The report's primary exam, locked: every write on a report's critical values holds it, so two
 * closings at once cannot both leave the flag up (each would see the other's value still open).
 */
export async function lockReportExam(db: Db, reportId: string) {
  const [row] = await db
    .select({ id: exams.id, applyDept: exams.applyDept, assigneeId: exams.assigneeId, patientId: exams.patientId })
    .from(exams)
    .where(eq(exams.id, reportId))
    .for('update');
  return row;
}

export async function insertCriticalValue(db: Db, row: typeof criticalValues.$inferInsert): Promise<CriticalValueRow> {
  const [out] = await db.insert(criticalValues).values(row).returning();
  return out!;
}

export async function listCriticalValues(db: Db, reportId: string): Promise<CriticalValueRow[]> {
  return db
    .select()
    .from(criticalValues)
    .where(eq(criticalValues.reportId, reportId))
    .orderBy(desc(criticalValues.sentAt), desc(criticalValues.id));
}

export async function findCriticalValue(
  db: Db,
  reportId: string,
  id: string,
  forUpdate = false,
): Promise<CriticalValueRow | undefined> {
  const q = db
    .select()
    .from(criticalValues)
    .where(and(eq(criticalValues.id, id), eq(criticalValues.reportId, reportId)));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function updateCriticalValue(
  db: Db,
  id: string,
  change: Partial<Omit<typeof criticalValues.$inferInsert, 'id' | 'reportId' | 'bucketId'>>,
): Promise<CriticalValueRow> {
  const [row] = await db.update(criticalValues).set(change).where(eq(criticalValues.id, id)).returning();
  return row!;
}

export async function hasOpenCriticalValue(db: Db, reportId: string): Promise<boolean> {
  const rows = await db
    .select({ id: criticalValues.id })
    .from(criticalValues)
    .where(and(eq(criticalValues.reportId, reportId), ne(criticalValues.status, 'handled')))
    .limit(1);
  return rows.length > 0;
}

/**
 * The study list's critical flag of the report's exams (its primary and co-written ones): up
 * while any of the report's critical values is not handled.
 */
export async function setCriticalFlag(db: Db, reportId: string, open: boolean, now: Date): Promise<void> {
  await db
    .update(exams)
    .set({ criticalFlag: open, updated: now })
    .where(
      sql`(${exams.id} = ${reportId} or ${exams.id} in (select ${coExams.examId} from ${coExams} where ${coExams.primaryExamId} = ${reportId})) and ${exams.criticalFlag} <> ${open}`,
    );
}

/**
 * A critical_value notification per recipient. One row per account, exam and kind exists
 * (notifications_account_exam_kind_idx), so a later critical value on the same exam brings the
 * recipient's row back to the top, unread, instead of being dropped.
 */
export async function notifyCriticalValue(db: Db, input: ExamNotificationInput, now: Date): Promise<number> {
  if (input.accountIds.length === 0) return 0;
  const rows = await db
    .insert(notifications)
    .values(examNotificationRows(input, 'critical_value', now))
    .onConflictDoUpdate({
      target: [notifications.accountId, notifications.examId, notifications.kind],
      set: { payload: input.payload, createdAt: now, readAt: null },
    })
    .returning({ id: notifications.id });
  return rows.length;
}

/** Counts by status and median minutes to read-back and to handling, of values sent in [from, to). */
export async function criticalValueStats(db: Db, bucketId: string, from: Date, to: Date) {
  const minutes = (end: typeof criticalValues.receivedAt) =>
    sql<
      number | string | null
    >`percentile_cont(0.5) within group (order by extract(epoch from (${end} - ${criticalValues.sentAt})) / 60.0)`;
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      sent: sql<number>`(count(*) filter (where ${criticalValues.status} = 'sent'))::int`,
      received: sql<number>`(count(*) filter (where ${criticalValues.status} = 'received'))::int`,
      handled: sql<number>`(count(*) filter (where ${criticalValues.status} = 'handled'))::int`,
      toReceive: minutes(criticalValues.receivedAt),
      toHandle: minutes(criticalValues.handledAt),
    })
    .from(criticalValues)
    .where(and(eq(criticalValues.bucketId, bucketId), gte(criticalValues.sentAt, from), lt(criticalValues.sentAt, to)));
  return row!;
}

export interface CriticalValuePageFilter {
  bucketIds: string[];
  status?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  skip: number;
  limit: number;
}

/**
 * A page of critical values across organizations, newest sent first, with their exams and
 * organizations (critical_values_bucket_sent_idx), and the counts by status of the filters other
 * than status. Values of deleted exams are left out, as the study list leaves the exams out.
 */
export async function criticalValuePage(db: Db, f: CriticalValuePageFilter) {
  if (f.bucketIds.length === 0) return { rows: [], counts: { sent: 0, received: 0, handled: 0 } };
  const scope = and(
    inArray(criticalValues.bucketId, f.bucketIds),
    f.from ? gte(criticalValues.sentAt, f.from) : undefined,
    f.to ? lt(criticalValues.sentAt, f.to) : undefined,
    isNull(exams.deletedTime),
  );
  const [rows, [counts]] = await Promise.all([
    db
      .select({
        value: criticalValues,
        bucketName: buckets.name,
        patientName: exams.patientName,
        patientGender: exams.patientGender,
        isPrivacy: exams.isPrivacy,
        modality: exams.modality,
        bodyPart: exams.bodyPart,
        studyDate: exams.studyDate,
      })
      .from(criticalValues)
      .innerJoin(exams, eq(exams.id, criticalValues.reportId))
      .innerJoin(buckets, eq(buckets.id, criticalValues.bucketId))
      .where(and(scope, f.status ? eq(criticalValues.status, f.status) : undefined))
      .orderBy(desc(criticalValues.sentAt), desc(criticalValues.id))
      .offset(f.skip)
      .limit(f.limit),
    db
      .select({
        sent: sql<number>`(count(*) filter (where ${criticalValues.status} = 'sent'))::int`,
        received: sql<number>`(count(*) filter (where ${criticalValues.status} = 'received'))::int`,
        handled: sql<number>`(count(*) filter (where ${criticalValues.status} = 'handled'))::int`,
      })
      .from(criticalValues)
      .innerJoin(exams, eq(exams.id, criticalValues.reportId))
      .where(scope),
  ]);
  const n = (v: number | string | undefined) => Number(v ?? 0);
  return {
    rows,
    counts: { sent: n(counts?.sent), received: n(counts?.received), handled: n(counts?.handled) },
  };
}
