import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { exams, instances, series } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** Every stored instance of the live exams `examIds`, with what the media's records and index page name. */
export async function mediaFiles(db: Db, examIds: string[]) {
  if (examIds.length === 0) return [];
  return db
    .select({
      examId: exams.id,
      patientKeyId: exams.patientKeyId,
      patientName: exams.patientName,
      patientId: exams.patientId,
      patientSex: exams.patientGender,
      patientBirthDate: exams.patientDob,
      studyUid: exams.storeUid,
      studyDate: exams.studyDate,
      studyTime: exams.studyTime,
      studyDescription: exams.studyDesc,
      studyId: exams.studyId,
      accessionNumber: exams.accessionNumber,
      seriesUid: series.seriesUid,
      seriesNumber: series.seriesNumber,
      seriesDescription: series.description,
      modality: series.modality,
      sopInstanceUid: instances.sopInstanceUid,
      sopClassUid: instances.sopClassUid,
      transferSyntaxUid: instances.transferSyntaxUid,
      instanceNumber: instances.instanceNumber,
      blobKey: instances.blobKey,
      size: instances.size,
    })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .innerJoin(exams, eq(exams.id, instances.examId))
    .where(and(inArray(instances.examId, examIds), isNull(exams.deletedTime)))
    .orderBy(
      asc(exams.patientKeyId),
      asc(exams.studyDate),
      asc(exams.id),
      asc(series.seriesNumber),
      asc(series.seriesUid),
      asc(instances.instanceNumber),
      asc(instances.sopInstanceUid),
    );
}

export type MediaFile = Awaited<ReturnType<typeof mediaFiles>>[number];
