import { and, eq, isNull, or } from 'drizzle-orm';
import { examPackages, exams, instances, reportImages, series } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { nameInitials } from '../archive/index.js';

/*
 * Image binding's writes on exams (spec 000 §4 "binding images deletes associated data", §6
 * exam_bind; issue 22). The registry's match service (modules/registry/registry-match.service.ts)
 * runs them in its transaction through this module's face.
 */

/** What binding needs to know of a live exam. */
export interface BindableExam {
  id: string;
  bucketId: string;
  storeUid: string;
  patientId: string;
  accessionNumber: string;
  hasImage: boolean;
  seriesCount: number;
  instanceCount: number;
  /** the report status of spec 000 §4 ('none' without a report) */
  reportStatus: string;
}

const bindable = {
  id: exams.id,
  bucketId: exams.bucketId,
  storeUid: exams.storeUid,
  patientId: exams.patientId,
  accessionNumber: exams.accessionNumber,
  hasImage: exams.hasImage,
  seriesCount: exams.seriesCount,
  instanceCount: exams.instanceCount,
  reportStatus: exams.reportStatus,
};

/** A live (not deleted) exam, or undefined. */
export async function findBindableExam(db: Db, examId: string): Promise<BindableExam | undefined> {
  const rows = await db
    .select(bindable)
    .from(exams)
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)))
    .limit(1);
  return rows[0];
}

/**
 * Locks a live exam's row for the rest of the transaction (two binds of one exam run one after
 * the other, the second seeing what the first did), or undefined when it is gone.
 */
export async function lockBindableExam(db: Db, examId: string): Promise<BindableExam | undefined> {
  const rows = await db
    .select(bindable)
    .from(exams)
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)))
    .for('update');
  return rows[0];
}

/** The patient and order an exam takes from the scheduled exam it is matched to. */
export interface ScheduledIdentity {
  patientName: string;
  patientId: string;
  patientGender: string;
  patientDob: string;
  accessionNumber: string;
}

/**
 * Writes the registration's patient and accession number onto an exam matched to it: the desk's
 * record is the one the hospital keeps, a header typed at the modality may be wrong (that is why
 * the study was not matched on store). Empty registration values leave the exam's own.
 */
export async function takeScheduledIdentity(
  db: Db,
  examId: string,
  identity: ScheduledIdentity,
  now: Date,
): Promise<void> {
  const [row] = await db.select().from(exams).where(eq(exams.id, examId)).for('update');
  if (!row) throw new Error('match: exam vanished');
  const pick = (mine: string, theirs: string) => theirs || mine;
  const patientName = pick(row.patientName, identity.patientName);
  await db
    .update(exams)
    .set({
      patientName,
      patientNamePinyin: nameInitials(patientName),
      patientId: pick(row.patientId, identity.patientId),
      patientGender: pick(row.patientGender, identity.patientGender),
      patientDob: pick(row.patientDob, identity.patientDob),
      accessionNumber: pick(row.accessionNumber, identity.accessionNumber),
      updated: now,
    })
    .where(eq(exams.id, examId));
}

/**
 * Binds the images of `fromId` to `intoId`: the target's previous images and everything derived
 * from them go (its instances and series, its study package, its report's key images captured in
 * the viewer, its AI result); the source's series and instances move to it; the target takes the
 * source's StudyInstanceUID and image facts, keeps its own registration fields and its report;
 * the emptied source exam is removed. Answers the blob keys to delete once the transaction commits.
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
  const keyImages = await db
    .delete(reportImages)
    .where(eq(reportImages.reportId, intoId))
    .returning({ key: reportImages.blobKey });
  await db.delete(instances).where(eq(instances.examId, intoId));
  await db.delete(series).where(eq(series.examId, intoId));
  await db.delete(examPackages).where(or(eq(examPackages.examId, intoId), eq(examPackages.examId, fromId)));
  await db.update(series).set({ examId: intoId }).where(eq(series.examId, fromId));
  await db.update(instances).set({ examId: intoId }).where(eq(instances.examId, fromId));
  await db.delete(exams).where(eq(exams.id, fromId));
  const keep = (mine: string, theirs: string) => mine || theirs;
  // An AI result finished on the moved images stays true of them; one under way was asked for the
  // emptied exam and is dropped.
  const aiDone = from.aiStatus === 'done';
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
      aiStatus: aiDone ? 'done' : '',
      aiResult: aiDone ? from.aiResult : null,
      updated: now,
    })
    .where(eq(exams.id, intoId));
  return [...old.map((o) => o.key), ...packages.map((p) => p.key), ...keyImages.map((k) => k.key)];
}
