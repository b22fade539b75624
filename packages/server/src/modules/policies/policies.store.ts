import { and, asc, eq, isNull } from 'drizzle-orm';
import { exams, instances, series } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The live exam of a study in an organization, with its stored files in series and instance order. */
export async function studyFiles(db: Db, bucketId: string, storeUid: string) {
  const [exam] = await db
    .select({ id: exams.id, patientId: exams.patientId, isPrivacy: exams.isPrivacy })
    .from(exams)
    .where(and(eq(exams.bucketId, bucketId), eq(exams.storeUid, storeUid), isNull(exams.deletedTime)))
    .limit(1);
  if (!exam) return undefined;
  const files = await db
    .select({
      seriesInstanceUid: series.seriesUid,
      sopInstanceUid: instances.sopInstanceUid,
      size: instances.size,
      blobKey: instances.blobKey,
    })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .where(eq(instances.examId, exam.id))
    .orderBy(asc(series.seriesNumber), asc(series.seriesUid), asc(instances.instanceNumber), asc(instances.createdAt));
  return { exam, files };
}
