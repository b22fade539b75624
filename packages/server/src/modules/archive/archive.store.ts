import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { exams, instances, patients, series } from '../../db/schema.js';
import type { ParsedInstance } from '../../dicom/parse.js';

/** All SQL of the ingest: upserts keyed by the DICOM UIDs, so a re-sent instance is stored once. */

export async function findInstance(db: Db, bucketId: string, sopInstanceUid: string) {
  const rows = await db
    .select({ id: instances.id, examId: instances.examId, seriesId: instances.seriesId })
    .from(instances)
    .where(and(eq(instances.bucketId, bucketId), eq(instances.sopInstanceUid, sopInstanceUid)))
    .limit(1);
  return rows[0];
}

export async function upsertPatient(db: Db, bucketId: string, p: ParsedInstance, now: Date): Promise<string> {
  const patientKey = p.patient.id || `study:${p.studyInstanceUid}`;
  const rows = await db
    .insert(patients)
    .values({
      id: crypto.randomUUID(),
      bucketId,
      patientKey,
      patientId: p.patient.id,
      name: p.patient.name,
      sex: p.patient.sex,
      birthDate: p.patient.birthDate,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [patients.bucketId, patients.patientKey],
      set: { updatedAt: now },
    })
    .returning({ id: patients.id });
  return rows[0]!.id;
}

/** The exam of the study in this bucket, created on its first instance. */
export async function upsertExam(
  db: Db,
  bucketId: string,
  patientKeyId: string,
  p: ParsedInstance,
  source: string,
  now: Date,
): Promise<{ id: string; created: boolean }> {
  const rows = await db
    .insert(exams)
    .values({
      id: crypto.randomUUID(),
      bucketId,
      storeUid: p.studyInstanceUid,
      patientKeyId,
      patientName: p.patient.name,
      patientId: p.patient.id,
      patientGender: p.patient.sex,
      patientDob: p.patient.birthDate,
      accessionNumber: p.study.accessionNumber,
      studyDate: p.study.date,
      studyTime: p.study.time,
      studyDesc: p.study.description,
      studyId: p.study.id,
      modality: p.series.modality,
      bodyPart: p.series.bodyPart,
      institution: p.study.institution,
      referringPhysician: p.study.referringPhysician,
      specificCharacterSet: p.specificCharacterSet,
      hasImage: true,
      source,
      created: now,
      updated: now,
    })
    .onConflictDoUpdate({ target: [exams.bucketId, exams.storeUid], set: { updated: now } })
    .returning({ id: exams.id, created: sql<boolean>`(xmax = 0)` });
  return { id: rows[0]!.id, created: rows[0]!.created };
}

export async function upsertSeries(db: Db, examId: string, bucketId: string, p: ParsedInstance, now: Date) {
  const rows = await db
    .insert(series)
    .values({
      id: crypto.randomUUID(),
      examId,
      bucketId,
      seriesUid: p.seriesInstanceUid,
      modality: p.series.modality,
      seriesNumber: p.series.number,
      description: p.series.description,
      bodyPart: p.series.bodyPart,
      seriesDate: p.series.date,
      seriesTime: p.series.time,
      createdAt: now,
    })
    .onConflictDoUpdate({ target: [series.examId, series.seriesUid], set: { modality: sql`${series.modality}` } })
    .returning({ id: series.id, created: sql<boolean>`(xmax = 0)` });
  return { id: rows[0]!.id, created: rows[0]!.created };
}

export async function insertInstance(
  db: Db,
  values: { seriesId: string; examId: string; bucketId: string; blobKey: string; size: number },
  p: ParsedInstance,
  now: Date,
): Promise<string | undefined> {
  const rows = await db
    .insert(instances)
    .values({
      id: crypto.randomUUID(),
      ...values,
      sopInstanceUid: p.sopInstanceUid,
      sopClassUid: p.sopClassUid,
      transferSyntaxUid: p.transferSyntaxUid,
      instanceNumber: p.instance.number,
      rows: p.instance.rows,
      columns: p.instance.columns,
      frames: p.instance.frames,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: instances.id });
  return rows[0]?.id;
}

/** Counts the new instance (and series) on the exam; keeps ModalitiesInStudy complete. */
export async function countInstance(
  db: Db,
  examId: string,
  seriesId: string,
  newSeries: boolean,
  size: number,
  modality: string,
  now: Date,
): Promise<void> {
  await db
    .update(series)
    .set({ instanceCount: sql`${series.instanceCount} + 1` })
    .where(eq(series.id, seriesId));
  await db
    .update(exams)
    .set({
      instanceCount: sql`${exams.instanceCount} + 1`,
      seriesCount: newSeries ? sql`${exams.seriesCount} + 1` : exams.seriesCount,
      sizeBytes: sql`${exams.sizeBytes} + ${size}`,
      modality:
        modality === ''
          ? exams.modality
          : sql`case when ${exams.modality} = '' then ${modality} when ${modality} = any(string_to_array(${exams.modality}, '\\')) then ${exams.modality} else ${exams.modality} || '\\' || ${modality} end`,
      updated: now,
    })
    .where(eq(exams.id, examId));
}
