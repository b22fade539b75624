import { and, asc, count, eq } from 'drizzle-orm';
import crypto from 'node:crypto';
import { accounts, buckets, examAttachments, exams, type ExamAttachmentRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

export type NewAttachment = Omit<ExamAttachmentRow, 'id' | 'createdAt'>;

export async function insertAttachment(db: Db, row: NewAttachment, now: Date): Promise<ExamAttachmentRow> {
  const [inserted] = await db
    .insert(examAttachments)
    .values({ id: crypto.randomUUID(), ...row, createdAt: now })
    .returning();
  return inserted!;
}

/** Inserts the row unless its blob key is already recorded; then answers undefined. */
export async function insertAttachmentOnce(
  db: Db,
  row: NewAttachment,
  now: Date,
): Promise<ExamAttachmentRow | undefined> {
  const [inserted] = await db
    .insert(examAttachments)
    .values({ id: crypto.randomUUID(), ...row, createdAt: now })
    .onConflictDoNothing({ target: examAttachments.blobKey })
    .returning();
  return inserted;
}

export async function attachmentByKey(db: Db, blobKey: string): Promise<ExamAttachmentRow | undefined> {
  return (await db.select().from(examAttachments).where(eq(examAttachments.blobKey, blobKey)).limit(1))[0];
}

export async function countForCode(db: Db, codeId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(examAttachments).where(eq(examAttachments.uploadCodeId, codeId));
  return Number(row?.n ?? 0);
}

export async function listForCode(db: Db, codeId: string): Promise<ExamAttachmentRow[]> {
  return db
    .select()
    .from(examAttachments)
    .where(eq(examAttachments.uploadCodeId, codeId))
    .orderBy(asc(examAttachments.createdAt), asc(examAttachments.id));
}

export async function listForExam(db: Db, examId: string) {
  return db
    .select({ attachment: examAttachments, uploaderName: accounts.name })
    .from(examAttachments)
    .leftJoin(accounts, eq(accounts.id, examAttachments.uploadedBy))
    .where(eq(examAttachments.examId, examId))
    .orderBy(asc(examAttachments.createdAt), asc(examAttachments.id));
}

export async function findForExam(db: Db, examId: string, id: string): Promise<ExamAttachmentRow | undefined> {
  return (
    await db
      .select()
      .from(examAttachments)
      .where(and(eq(examAttachments.examId, examId), eq(examAttachments.id, id)))
      .limit(1)
  )[0];
}

export async function deleteAttachment(db: Db, id: string): Promise<void> {
  await db.delete(examAttachments).where(eq(examAttachments.id, id));
}

/** What a code holder may see of its exam: the organization, modality, date and patient name. */
export async function examForCode(db: Db, examId: string) {
  return (
    await db
      .select({
        id: exams.id,
        bucketId: exams.bucketId,
        patientName: exams.patientName,
        patientId: exams.patientId,
        modality: exams.modality,
        studyDate: exams.studyDate,
        deletedTime: exams.deletedTime,
        organizationName: buckets.name,
      })
      .from(exams)
      .innerJoin(buckets, eq(buckets.id, exams.bucketId))
      .where(eq(exams.id, examId))
      .limit(1)
  )[0];
}
