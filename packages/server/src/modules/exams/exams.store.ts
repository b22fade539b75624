import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { examPackages, exams, instances, series } from '../../db/schema.js';

/** A live exam's organization and why it is there (exams.source), undefined when there is none. */
export async function liveExamOwner(db: Db, examId: string): Promise<{ bucketId: string; source: string } | undefined> {
  const rows = await db
    .select({ bucketId: exams.bucketId, source: exams.source })
    .from(exams)
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)))
    .limit(1);
  return rows[0];
}

export async function findExam(db: Db, examId: string) {
  return (await db.select().from(exams).where(eq(exams.id, examId)).limit(1))[0];
}

export async function examByStoreUid(db: Db, bucketId: string, storeUid: string) {
  return (
    await db
      .select()
      .from(exams)
      .where(and(eq(exams.bucketId, bucketId), eq(exams.storeUid, storeUid), isNull(exams.deletedTime)))
      .limit(1)
  )[0];
}

export async function findPackage(db: Db, examId: string) {
  return (await db.select().from(examPackages).where(eq(examPackages.examId, examId)).limit(1))[0];
}

export async function savePackage(db: Db, examId: string, blobKey: string, size: number, builtAt: Date) {
  await db
    .insert(examPackages)
    .values({ examId, blobKey, size, builtAt })
    .onConflictDoUpdate({ target: examPackages.examId, set: { blobKey, size, builtAt } });
}

/** Moves every series and instance of `fromId` into `intoId`, recounts, and removes the emptied exam. */
export async function mergeExams(db: Db, intoId: string, fromId: string, now: Date): Promise<void> {
  await db.update(series).set({ examId: intoId }).where(eq(series.examId, fromId));
  await db.update(instances).set({ examId: intoId }).where(eq(instances.examId, fromId));
  await db.execute(sql`
    update exams set
      series_count = (select count(*) from series where exam_id = ${intoId}),
      instance_count = (select count(*) from instances where exam_id = ${intoId}),
      size_bytes = (select coalesce(sum(size), 0) from instances where exam_id = ${intoId}),
      modality = coalesce((select string_agg(distinct modality, '\\') from series where exam_id = ${intoId} and modality <> ''), ''),
      updated = ${now.toISOString()}::timestamptz
    where id = ${intoId}`);
  await db.delete(examPackages).where(eq(examPackages.examId, fromId));
  await db.delete(exams).where(eq(exams.id, fromId));
}
