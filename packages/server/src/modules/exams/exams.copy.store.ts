import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { exams, instances, patients, series } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { copyBoundToConsultation } from './exams.copy-gate.js';

/**
 * Why an exam was copied into another organization: 'remote' for a remote or expert read (orders,
 * issue 24: the experts report the copy), 'consultation' for an exam bound to a consultation
 * (issue 25: the target organization reads it, never reports it).
 */
export type ExamCopySource = 'remote' | 'consultation';
export const EXAM_COPY_SOURCES: readonly ExamCopySource[] = ['remote', 'consultation'];

/**
 * Copies an exam into another organization: an exam row of the target (same patient data, its own
 * patient row there) with series and instance rows naming the same stored blobs (no bytes copied),
 * so the target's study list, viewer and report workstation work unchanged and neither side reaches
 * the other's exam. The same study already in the target (copied before, or sent there too) is
 * reused and answered; a consultation's copy reused by a remote read becomes the read's ('remote'),
 * which its experts report. Answers the copy's exam id.
 */
export async function copyExamInto(
  tx: Db,
  input: { examId: string; targetBucketId: string; source: ExamCopySource; now: Date },
): Promise<string> {
  const { targetBucketId: target, now } = input;
  const [source] = await tx.select().from(exams).where(eq(exams.id, input.examId)).limit(1);
  if (!source) throw new Error(`exam ${input.examId} is gone`);
  const [existing] = await tx
    .select({ id: exams.id, source: exams.source })
    .from(exams)
    .where(and(eq(exams.bucketId, target), eq(exams.storeUid, source.storeUid)))
    .limit(1);
  if (existing) {
    if (input.source === 'remote' && existing.source === 'consultation') {
      await tx.update(exams).set({ source: 'remote', updated: now }).where(eq(exams.id, existing.id));
    }
    return existing.id;
  }
  const [patient] = await tx.select().from(patients).where(eq(patients.id, source.patientKeyId)).limit(1);
  await tx
    .insert(patients)
    .values({ ...patient!, id: crypto.randomUUID(), bucketId: target, createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  const [targetPatient] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.bucketId, target), eq(patients.patientKey, patient!.patientKey)))
    .limit(1);
  const examId = crypto.randomUUID();
  await tx.insert(exams).values({
    ...source,
    id: examId,
    bucketId: target,
    patientKeyId: targetPatient!.id,
    source: input.source,
    reportStatus: 'none',
    assigneeId: null,
    assignedAt: null,
    aiStatus: '',
    aiResult: null,
    studyPrinted: false,
    criticalFlag: false,
    deletedTime: null,
    created: now,
    updated: now,
  });
  const ss = await tx.select().from(series).where(eq(series.examId, source.id));
  const seriesIds = new Map(ss.map((s) => [s.id, crypto.randomUUID()]));
  if (ss.length > 0) {
    await tx
      .insert(series)
      .values(ss.map((s) => ({ ...s, id: seriesIds.get(s.id)!, examId, bucketId: target, createdAt: now })));
    const is = await tx.select().from(instances).where(eq(instances.examId, source.id));
    for (let i = 0; i < is.length; i += 500) {
      await tx
        .insert(instances)
        .values(
          is.slice(i, i + 500).map((x) => ({
            ...x,
            id: crypto.randomUUID(),
            seriesId: seriesIds.get(x.seriesId)!,
            examId,
            bucketId: target,
            createdAt: now,
          })),
        )
        .onConflictDoNothing();
    }
  }
  return examId;
}

/**
 * Removes a copy made by copyExamInto: its exam, series and instance rows (what hangs on the exam
 * goes with it); the blobs stay, the source exam still names them. Only an exam copied for `source`
 * goes: one the target held itself, or copied for another reason, stays. Answers whether it went.
 */
export async function removeExamCopy(tx: Db, copyExamId: string, source: ExamCopySource): Promise<boolean> {
  const [copy] = await tx
    .select({ id: exams.id, source: exams.source })
    .from(exams)
    .where(eq(exams.id, copyExamId))
    .limit(1);
  if (copy?.source !== source) return false;
  // A consultation's copy a remote read took over ('remote', copyExamInto) goes back to the
  // consultation still binding it when the read is cancelled, instead of leaving with the read.
  if (source === 'remote' && (await copyBoundToConsultation(tx, copy.id))) {
    await tx.update(exams).set({ source: 'consultation' }).where(eq(exams.id, copy.id));
    return false;
  }
  await tx.delete(instances).where(eq(instances.examId, copy.id));
  await tx.delete(exams).where(eq(exams.id, copy.id));
  return true;
}

/** Whether an exam is a consultation's read-only copy (its report is never written there). */
export async function isConsultationCopy(db: Db, examId: string): Promise<boolean> {
  const [row] = await db.select({ source: exams.source }).from(exams).where(eq(exams.id, examId)).limit(1);
  return row?.source === 'consultation';
}
