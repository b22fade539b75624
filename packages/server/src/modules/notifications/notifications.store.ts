import crypto from 'node:crypto';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { buckets, exams, notifications, type ExamNotificationPayload, type NotificationRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The exam with what its notification needs: organization name and group, and the upload-token notify list. */
export async function examForNotification(db: Db, examId: string) {
  const rows = await db
    .select({
      id: exams.id,
      bucketId: exams.bucketId,
      patientName: exams.patientName,
      modality: exams.modality,
      bodyPart: exams.bodyPart,
      studyDate: exams.studyDate,
      studyTime: exams.studyTime,
      created: exams.created,
      bucketName: buckets.name,
      groupId: buckets.groupId,
      settings: buckets.settings,
    })
    .from(exams)
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .where(eq(exams.id, examId))
    .limit(1);
  return rows[0];
}

/** Of these exams, those marked confidential (isPrivacy) now: their names stay masked without view_privacy. */
export async function confidentialExams(db: Db, examIds: string[]): Promise<Set<string>> {
  if (examIds.length === 0) return new Set();
  const rows = await db
    .select({ id: exams.id })
    .from(exams)
    .where(and(inArray(exams.id, examIds), eq(exams.isPrivacy, true)));
  return new Set(rows.map((r) => r.id));
}

/** An exam's notification for its recipients: their organization's group, the exam and what the bell shows of it. */
export interface ExamNotificationInput {
  accountIds: string[];
  groupId: string;
  bucketId: string;
  examId: string;
  payload: ExamNotificationPayload;
}

/** The rows of an exam's notification of `kind`, one per recipient, new and unread. */
export function examNotificationRows(input: ExamNotificationInput, kind: string, now: Date) {
  return input.accountIds.map((accountId) => ({
    id: crypto.randomUUID(),
    accountId,
    groupId: input.groupId,
    bucketId: input.bucketId,
    kind,
    examId: input.examId,
    payload: input.payload,
    createdAt: now,
  }));
}

/** Adds one notification per recipient; a recipient who already has this one for the exam gets nothing new. */
export async function insertExamNotifications(
  db: Db,
  input: ExamNotificationInput & { kind: string },
  now: Date,
): Promise<string[]> {
  if (input.accountIds.length === 0) return [];
  const rows = await db
    .insert(notifications)
    .values(examNotificationRows(input, input.kind, now))
    .onConflictDoNothing({ target: [notifications.accountId, notifications.examId, notifications.kind] })
    .returning({ id: notifications.id });
  return rows.map((r) => r.id);
}

/** The account's newest notifications (index notifications_account_created_idx). */
export async function listForAccount(db: Db, accountId: string, limit: number): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.accountId, accountId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

export async function countUnread(db: Db, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.accountId, accountId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

export async function latestId(db: Db, accountId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.accountId, accountId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(1);
  return row?.id ?? null;
}

/** Marks one of the account's notifications read (a read one keeps its time); false when it has none by that id. */
export async function markRead(db: Db, accountId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, id), eq(notifications.accountId, accountId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

export async function markAllRead(db: Db, accountId: string, now: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.accountId, accountId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}
