import { CONSULTATION_MAX, displayPersonName } from '@yyp/contracts';
import type { ConsultationRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { copyExamInto, removeExamCopy } from '../exams/index.js';
import { findConsultation } from './consultation-access.store.js';
import { openFeeOnBind } from './consultation-fee.js';
import * as store from './consultation-exams.store.js';
import { addTrace } from './consultations.store.js';

/**
 * Bound exams and their sharing (issue 25 "bound exams are shared read-only with the target
 * organization's participants for the life of the consultation"): binding an exam of the source
 * organization makes at once a copy of it in the target organization (the exams face's copyExamInto,
 * source 'consultation': an exam row of the target naming the same stored instances), which its study
 * list, viewer and report workstation show; its report is read-only there (app.ts hands
 * isConsultationCopy to the reports' readOnlyWhen). Unbinding, and closing the consultation
 * (completed or canceled: unshareConsultationExams), removes the copy; the snapshot stays.
 */

/** YYYYMMDD as YYYY-MM-DD; null for an exam without a study date. */
function isoStudyDate(d: string): string | null {
  if (/^\d{8}$/.test(d)) return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
  return d.trim() === '' ? null : d;
}

/** The snapshot name of a bound exam: its patient's name, else its description. */
function snapshotName(e: store.ExamForBinding): string {
  return displayPersonName(e.patientName, 'chs').trim() || e.studyDesc.trim();
}

const tooMany = (bound: number, asked: number) =>
  errors.validation(`At most ${CONSULTATION_MAX.exams} exams can be bound to a consultation`, {
    field: 'examIds',
    problem: 'tooMany',
    limit: CONSULTATION_MAX.exams,
    bound,
    asked,
  });

/** What binding reports back: the exams newly bound (an exam bound already is not repeated). */
export interface BoundExam {
  examId: string;
  bucketId: string;
  patientId: string;
  sharedExamId: string;
}

/**
 * Binds exams of the consultation's source organization (live, not another's shared copy), at most
 * CONSULTATION_MAX.exams in all, each shared into the target at once. The caller holds the
 * consultation's row lock (or made it in this transaction) and checked the op. Any exam not of the
 * source organization is 404 Exam, as another tenant's is; nothing is bound then.
 */
export async function bindExams(
  tx: Db,
  by: { accountId: string },
  consultation: Pick<ConsultationRow, 'id' | 'sourceBucketId' | 'targetBucketId'>,
  examIds: readonly string[],
  now: Date,
): Promise<BoundExam[]> {
  const wanted = [...new Set(examIds)];
  const found = new Map((await store.examsForBinding(tx, wanted)).map((e) => [e.id, e]));
  for (const id of wanted) {
    const e = found.get(id);
    if (!e || e.bucketId !== consultation.sourceBucketId || e.deletedTime) throw errors.notFound('Exam');
    if (e.source === 'consultation') {
      throw errors.validation("An exam shared from another organization's consultation cannot be bound", {
        field: 'examIds',
        problem: 'sharedCopy',
        examId: id,
      });
    }
  }
  const already = new Set((await store.boundExams(tx, consultation.id)).map((b) => b.examId));
  const fresh = wanted.filter((id) => !already.has(id));
  if (already.size + fresh.length > CONSULTATION_MAX.exams) throw tooMany(already.size, fresh.length);
  const out: BoundExam[] = [];
  for (const id of fresh) {
    const e = found.get(id)!;
    await store.insertBound(tx, {
      consultationId: consultation.id,
      examId: id,
      name: snapshotName(e),
      modality: e.modality,
      bodyPart: e.bodyPart,
      studyDate: isoStudyDate(e.studyDate),
      boundBy: by.accountId,
      created: now,
    });
    const sharedExamId = await copyExamInto(tx, {
      examId: id,
      targetBucketId: consultation.targetBucketId,
      source: 'consultation',
      now,
    });
    await store.setShared(tx, consultation.id, id, sharedExamId);
    await addTrace(tx, {
      consultationId: consultation.id,
      action: 'bindExam',
      accountId: by.accountId,
      detail: { examId: id, name: snapshotName(e) },
      at: now,
    });
    out.push({ examId: id, bucketId: e.bucketId, patientId: e.patientId, sharedExamId });
  }
  if (out.length > 0) {
    await store.touchConsultation(tx, consultation.id, now);
    // Where the target charges for consultations, the fee is due from the first bound exam on.
    await openFeeOnBind(tx, consultation.id, out[0]!.examId, now);
  }
  return out;
}

/** Removes a binding's copy from the target unless another binding still shares it. */
async function dropCopy(tx: Db, row: store.BoundExamRow): Promise<void> {
  if (!row.sharedExamId) return;
  if (await store.copyStillShared(tx, row.sharedExamId, row)) return;
  await removeExamCopy(tx, row.sharedExamId, 'consultation');
}

/** Unbinds one exam and takes its copy back; 404 Exam when it is not bound. */
export async function unbindExam(
  tx: Db,
  by: { accountId: string },
  consultationId: string,
  examId: string,
  now: Date,
): Promise<store.BoundExamRow> {
  const row = await store.deleteBound(tx, consultationId, examId);
  if (!row) throw errors.notFound('Exam');
  await dropCopy(tx, row);
  await addTrace(tx, {
    consultationId,
    action: 'unbindExam',
    accountId: by.accountId,
    detail: { examId, name: row.name },
    at: now,
  });
  await store.touchConsultation(tx, consultationId, now);
  return row;
}

/**
 * For the consultation's close (completed or canceled; the service calls it in the transaction of the
 * change, through its onClose hook): every copy shared with the target goes and the bindings keep
 * their snapshot with shared_exam_id null. Answers how many copies were taken back.
 */
export async function unshareConsultationExams(tx: Db, consultationId: string, _now: Date): Promise<number> {
  const rows = await store.sharedBindings(tx, consultationId);
  for (const row of rows) {
    await store.setShared(tx, consultationId, row.examId, null);
    await dropCopy(tx, row);
  }
  return rows.length;
}

/**
 * Binds one exam at the consultation's creation (/consultations/add?examId: the create call's
 * examId), in the creating transaction; the creator's right to bind was checked by the caller.
 */
export async function bindConsultationExam(
  tx: Db,
  by: { accountId: string },
  consultationId: string,
  examId: string,
  now: Date,
): Promise<BoundExam | null> {
  const row = await findConsultation(tx, consultationId);
  if (!row) throw errors.notFound('Consultation');
  const [bound] = await bindExams(tx, by, row, [examId], now);
  return bound ?? null;
}
