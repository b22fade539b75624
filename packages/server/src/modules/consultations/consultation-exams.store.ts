import { and, count, eq, inArray, isNotNull, ne, or } from 'drizzle-orm';
import { consultationExams, consultations, exams } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

export type BoundExamRow = typeof consultationExams.$inferSelect;

/** The exams asked to be bound, with what the snapshot and the checks need (any organization). */
export function examsForBinding(db: Db, examIds: readonly string[]) {
  if (examIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: exams.id,
      bucketId: exams.bucketId,
      source: exams.source,
      deletedTime: exams.deletedTime,
      patientId: exams.patientId,
      patientName: exams.patientName,
      studyDesc: exams.studyDesc,
      modality: exams.modality,
      bodyPart: exams.bodyPart,
      studyDate: exams.studyDate,
    })
    .from(exams)
    .where(inArray(exams.id, [...examIds]));
}
export type ExamForBinding = Awaited<ReturnType<typeof examsForBinding>>[number];

/** The consultation's bound exams, first bound first. */
export function boundExams(db: Db, consultationId: string): Promise<BoundExamRow[]> {
  return db
    .select()
    .from(consultationExams)
    .where(eq(consultationExams.consultationId, consultationId))
    .orderBy(consultationExams.created, consultationExams.examId);
}

export async function countBound(db: Db, consultationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(consultationExams)
    .where(eq(consultationExams.consultationId, consultationId));
  return Number(row?.n ?? 0);
}

/** Binds an exam; undefined when it was bound already. */
export async function insertBound(
  tx: Db,
  row: Omit<BoundExamRow, 'sharedExamId' | 'created'> & { created: Date },
): Promise<BoundExamRow | undefined> {
  const [inserted] = await tx
    .insert(consultationExams)
    .values({ ...row, sharedExamId: null })
    .onConflictDoNothing()
    .returning();
  return inserted;
}

export async function setShared(tx: Db, consultationId: string, examId: string, sharedExamId: string | null) {
  await tx
    .update(consultationExams)
    .set({ sharedExamId })
    .where(and(eq(consultationExams.consultationId, consultationId), eq(consultationExams.examId, examId)));
}

/** Unbinds an exam; undefined when it was not bound. */
export async function deleteBound(tx: Db, consultationId: string, examId: string): Promise<BoundExamRow | undefined> {
  const [row] = await tx
    .delete(consultationExams)
    .where(and(eq(consultationExams.consultationId, consultationId), eq(consultationExams.examId, examId)))
    .returning();
  return row;
}

/** Whether another binding (of another consultation, or another row) still shares this copy. */
export async function copyStillShared(
  tx: Db,
  sharedExamId: string,
  except: { consultationId: string; examId: string },
): Promise<boolean> {
  const rows = await tx
    .select({ id: consultationExams.consultationId })
    .from(consultationExams)
    .where(
      and(
        eq(consultationExams.sharedExamId, sharedExamId),
        or(ne(consultationExams.consultationId, except.consultationId), ne(consultationExams.examId, except.examId)),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** The consultation's bindings that still share a copy with the target organization. */
export function sharedBindings(tx: Db, consultationId: string): Promise<BoundExamRow[]> {
  return tx
    .select()
    .from(consultationExams)
    .where(and(eq(consultationExams.consultationId, consultationId), isNotNull(consultationExams.sharedExamId)));
}

/** Keeps the consultation's `updated` current when its parts change (the version is its fields'). */
export async function touchConsultation(tx: Db, consultationId: string, now: Date): Promise<void> {
  await tx.update(consultations).set({ updated: now }).where(eq(consultations.id, consultationId));
}

/** Whether any binding still shares this copy (the exams face asks before a remote read's cancel removes it). */
export async function copyBound(db: Db, sharedExamId: string): Promise<boolean> {
  const rows = await db
    .select({ id: consultationExams.consultationId })
    .from(consultationExams)
    .where(eq(consultationExams.sharedExamId, sharedExamId))
    .limit(1);
  return rows.length > 0;
}
