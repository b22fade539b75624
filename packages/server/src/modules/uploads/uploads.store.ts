import crypto from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { buckets, exams, uploadSessions } from '../../db/schema.js';
import type { CorrectedColumns } from './upload-corrections.js';

export async function createSession(db: Db, bucketId: string, accountId: string | null, source: string, now: Date) {
  const rows = await db
    .insert(uploadSessions)
    .values({ id: crypto.randomUUID(), bucketId, accountId, source, createdAt: now })
    .returning();
  return rows[0]!;
}

export const findSession = async (db: Db, id: string) =>
  (await db.select().from(uploadSessions).where(eq(uploadSessions.id, id)).limit(1))[0];

export async function bucketByUploadToken(db: Db, token: string) {
  return (
    await db.select({ id: buckets.id, name: buckets.name }).from(buckets).where(eq(buckets.uploadToken, token)).limit(1)
  )[0];
}

export const bucketName = async (db: Db, id: string) =>
  (await db.select({ name: buckets.name }).from(buckets).where(eq(buckets.id, id)).limit(1))[0]?.name ?? '';

/** Adds one file's outcome to the session atomically (files finish concurrently). */
export async function recordFile(
  db: Db,
  id: string,
  outcome: { stored?: boolean; duplicate?: boolean; skipped?: { name: string; reason: string }; examId?: string },
) {
  await db
    .update(uploadSessions)
    .set({
      stored: outcome.stored ? sql`${uploadSessions.stored} + 1` : uploadSessions.stored,
      duplicates: outcome.duplicate ? sql`${uploadSessions.duplicates} + 1` : uploadSessions.duplicates,
      skipped: outcome.skipped
        ? sql`${uploadSessions.skipped} || ${JSON.stringify([outcome.skipped])}::jsonb`
        : uploadSessions.skipped,
      examIds: outcome.examId
        ? sql`case when ${uploadSessions.examIds} ? ${outcome.examId} then ${uploadSessions.examIds} else ${uploadSessions.examIds} || ${JSON.stringify([outcome.examId])}::jsonb end`
        : uploadSessions.examIds,
    })
    .where(eq(uploadSessions.id, id));
}

export async function completeSession(db: Db, id: string, now: Date) {
  const rows = await db
    .update(uploadSessions)
    .set({ status: 'completed', completedAt: now })
    .where(eq(uploadSessions.id, id))
    .returning();
  return rows[0];
}

/** Ends the open sessions of an organization's upload link (on rotation or revocation). */
export async function closeTokenSessions(db: Db, bucketId: string, now: Date): Promise<void> {
  await db
    .update(uploadSessions)
    .set({ status: 'completed', completedAt: now })
    .where(
      and(eq(uploadSessions.bucketId, bucketId), eq(uploadSessions.source, 'token'), eq(uploadSessions.status, 'open')),
    );
}

/** The exams an upload sent are complete: the study list stops showing them as arriving. */
export async function markExamsUploaded(db: Db, examIds: string[]): Promise<void> {
  if (examIds.length === 0) return;
  await db
    .update(exams)
    .set({ uploadStatus: 'completed' })
    .where(and(inArray(exams.id, examIds), eq(exams.uploadStatus, 'processing')));
}

/** POST exams/{id}/uploaded: one exam marked complete; undefined when there is no such exam. */
export async function markExamUploaded(db: Db, examId: string) {
  const rows = await db
    .update(exams)
    .set({ uploadStatus: 'completed' })
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)))
    .returning({ id: exams.id, uploadStatus: exams.uploadStatus });
  return rows[0];
}

/** The live exams of an upload in its organization, with the values a correction may change. */
export async function sessionExams(db: Db, bucketId: string, examIds: string[]) {
  if (examIds.length === 0) return [];
  return db
    .select({
      id: exams.id,
      created: exams.created,
      patientName: exams.patientName,
      patientId: exams.patientId,
      patientGender: exams.patientGender,
      patientDob: exams.patientDob,
      accessionNumber: exams.accessionNumber,
    })
    .from(exams)
    .where(and(inArray(exams.id, examIds), eq(exams.bucketId, bucketId), isNull(exams.deletedTime)))
    .orderBy(exams.id);
}

/** Writes the corrected values on the exam record (the stored files are not touched). */
export async function correctExam(db: Db, examId: string, change: CorrectedColumns, now: Date): Promise<void> {
  await db
    .update(exams)
    .set({ ...change, updated: now })
    .where(eq(exams.id, examId));
}
