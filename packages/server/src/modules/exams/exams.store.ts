import { and, asc, desc, eq, ilike, isNull, ne, or, sql } from 'drizzle-orm';
import { escapeLike } from '../../db/like.js';
import type { Db } from '../../platform/db.js';
import { examPackages, exams, instances, series } from '../../db/schema.js';

/** Which organization owns exam `examId` (a live exam: a deleted one has no owner here). */
export async function ownerOfExam(db: Db, examId: string): Promise<string | undefined> {
  const rows = await db
    .select({ bucketId: exams.bucketId })
    .from(exams)
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)))
    .limit(1);
  return rows[0]?.bucketId;
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

export async function examFiles(db: Db, examId: string) {
  return db
    .select({
      blobKey: instances.blobKey,
      sopInstanceUid: instances.sopInstanceUid,
      instanceNumber: instances.instanceNumber,
      seriesNumber: series.seriesNumber,
      modality: series.modality,
      seriesUid: series.seriesUid,
    })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .where(eq(instances.examId, examId))
    .orderBy(asc(series.seriesNumber), asc(series.seriesUid), asc(instances.instanceNumber));
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

/** Exams of the organization that the images of `examId` could be bound to (newest first). */
export async function bindCandidates(db: Db, bucketId: string, examId: string, q: string | undefined, limit: number) {
  const text = q ? `%${escapeLike(q)}%` : undefined;
  return db
    .select({
      id: exams.id,
      patientName: exams.patientName,
      patientId: exams.patientId,
      accessionNumber: exams.accessionNumber,
      modality: exams.modality,
      studyDate: exams.studyDate,
      hasImage: exams.hasImage,
      instanceCount: exams.instanceCount,
      created: exams.created,
    })
    .from(exams)
    .where(
      and(
        eq(exams.bucketId, bucketId),
        isNull(exams.deletedTime),
        ne(exams.id, examId),
        text
          ? or(ilike(exams.patientName, text), ilike(exams.patientId, text), ilike(exams.accessionNumber, text))
          : undefined,
      ),
    )
    .orderBy(desc(exams.created))
    .limit(limit);
}

/**
 * Binds the images of `fromId` to `intoId` (spec 000 §6 exam_bind): the target's previous images
 * and study package go, the source's series and instances move to it, the target takes the
 * source's StudyInstanceUID and keeps its own registration fields where it has them, and the
 * emptied source exam is removed. Answers the blob keys to delete once the transaction commits.
 */
export async function bindImages(db: Db, intoId: string, fromId: string, now: Date): Promise<string[]> {
  const [into] = await db.select().from(exams).where(eq(exams.id, intoId)).for('update');
  const [from] = await db.select().from(exams).where(eq(exams.id, fromId)).for('update');
  if (!into || !from) throw new Error('bind: exam vanished');
  const old = await db.select({ key: instances.blobKey }).from(instances).where(eq(instances.examId, intoId));
  const packages = await db
    .select({ key: examPackages.blobKey })
    .from(examPackages)
    .where(or(eq(examPackages.examId, intoId), eq(examPackages.examId, fromId)));
  await db.delete(instances).where(eq(instances.examId, intoId));
  await db.delete(series).where(eq(series.examId, intoId));
  await db.delete(examPackages).where(or(eq(examPackages.examId, intoId), eq(examPackages.examId, fromId)));
  await db.update(series).set({ examId: intoId }).where(eq(series.examId, fromId));
  await db.update(instances).set({ examId: intoId }).where(eq(instances.examId, fromId));
  await db.delete(exams).where(eq(exams.id, fromId));
  const keep = (mine: string, theirs: string) => mine || theirs;
  await db
    .update(exams)
    .set({
      storeUid: from.storeUid,
      hasImage: true,
      patientName: keep(into.patientName, from.patientName),
      patientId: keep(into.patientId, from.patientId),
      patientGender: keep(into.patientGender, from.patientGender),
      patientDob: keep(into.patientDob, from.patientDob),
      accessionNumber: keep(into.accessionNumber, from.accessionNumber),
      studyDate: from.studyDate || into.studyDate,
      studyTime: from.studyTime || into.studyTime,
      studyDesc: keep(into.studyDesc, from.studyDesc),
      studyId: from.studyId,
      modality: from.modality,
      bodyPart: keep(into.bodyPart, from.bodyPart),
      institution: keep(into.institution, from.institution),
      referringPhysician: keep(into.referringPhysician, from.referringPhysician),
      specificCharacterSet: from.specificCharacterSet,
      seriesCount: from.seriesCount,
      instanceCount: from.instanceCount,
      sizeBytes: from.sizeBytes,
      updated: now,
    })
    .where(eq(exams.id, intoId));
  return [...old.map((o) => o.key), ...packages.map((p) => p.key)];
}
