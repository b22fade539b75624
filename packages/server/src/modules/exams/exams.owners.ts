// The exams module's ownership look-ups: which organization owns an exam. Route auth names them
// (`auth: { action, owner: ownerFrom('examId', ownerOfExam, db) }`); their SQL is in the stores.
// Other modules reach ownerOfExam through the face (index.ts).
import type { Db } from '../../platform/db.js';
import { seesConsultationCopy } from './exams.copy-gate.js';
import { anyExamOwner } from './exams.lifecycle.store.js';
import { liveExamOwner } from './exams.store.js';

/**
 * The owner, unless the exam is a consultation's copy the caller may not see (exams.copy-gate.ts):
 * then there is none, and route auth answers 404 as for another tenant's exam. Without a caller
 * (a service's own check) the owner is answered.
 */
async function gated(
  db: Db,
  examId: string,
  row: { bucketId: string; source: string } | undefined,
  callerId: string | undefined,
): Promise<string | undefined> {
  if (!row) return undefined;
  if (row.source !== 'consultation' || callerId === undefined) return row.bucketId;
  return (await seesConsultationCopy(db, callerId, row.bucketId, examId)) ? row.bucketId : undefined;
}

/** Which organization owns a live exam (route auth passes the caller: see gated). */
export async function ownerOfExam(db: Db, examId: string, callerId?: string): Promise<string | undefined> {
  return gated(db, examId, await liveExamOwner(db, examId), callerId);
}

/** Which organization owns an exam, deleted or not (the deleted-exams view's recovery and delete). */
export async function ownerOfAnyExam(db: Db, examId: string, callerId?: string): Promise<string | undefined> {
  return gated(db, examId, await anyExamOwner(db, examId), callerId);
}
