import { and, eq, notInArray } from 'drizzle-orm';
import { exams, type ExamRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The AI task's queries: the exam it sends and the AI status kept on it. */

/** The exam row, deleted or not; undefined when there is none. */
export async function findExamForAi(db: Db, examId: string): Promise<ExamRow | undefined> {
  const [exam] = await db.select().from(exams).where(eq(exams.id, examId));
  return exam;
}

/** The exam's id and bucket, deleted or not (the AI service's callback). */
export async function examBucket(db: Db, examId: string): Promise<{ id: string; bucketId: string } | undefined> {
  const [exam] = await db.select({ id: exams.id, bucketId: exams.bucketId }).from(exams).where(eq(exams.id, examId));
  return exam;
}

/**
 * Marks the exam queued for the AI service unless it is already queued or sent; answers whether
 * it did (one statement, so two requests cannot both queue it).
 */
export async function claimAiTask(db: Db, examId: string, now: Date): Promise<boolean> {
  const claimed = await db
    .update(exams)
    .set({ aiStatus: 'queued', aiResult: null, updated: now })
    .where(and(eq(exams.id, examId), notInArray(exams.aiStatus, ['queued', 'sent'])))
    .returning({ id: exams.id });
  return claimed.length > 0;
}

/** Sets the exam's AI status, and its result when given. */
export async function setAiStatus(
  db: Db,
  examId: string,
  aiStatus: string,
  aiResult: Record<string, unknown> | undefined,
  now: Date,
): Promise<void> {
  await db
    .update(exams)
    .set({ aiStatus, ...(aiResult ? { aiResult } : {}), updated: now })
    .where(eq(exams.id, examId));
}
