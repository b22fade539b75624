import type { Db } from '../../platform/db.js';

/**
 * Who sees a consultation's copy of a bound exam (issue 25: "bound exams are shared read-only with
 * the target organization's participants for the life of the consultation"). A copy (exams.source
 * 'consultation', exams.copy.store.ts) is an exam row of the target organization, but only the
 * consultation's participants there see it: its members (experts, joiners) and the target staff
 * holding consultation_update. Anyone else of the target gets what another tenant gets: 404 for the
 * exam, and no row in the study list, its counts or DICOMweb. A remote read's copy ('remote') is not
 * concerned. The consultations module answers (it knows the participants); app.ts registers it
 * here, as exams cannot import consultations (consultations imports the exams face).
 */
export type ConsultationCopyGate = (
  db: Db,
  account: { id: string },
  bucketIds: readonly string[],
) => Promise<{ visible: ReadonlySet<string>; hidden: readonly string[] }>;

/**
 * Until the consultations module registers (app.ts does at once), route auth finds no owner for
 * a consultation copy; the lists hide none, as nothing names them.
 */
let gate: ConsultationCopyGate | null = null;

/** Registers the consultations module's answer (app.ts, at wiring time). */
export function setConsultationCopyGate(g: ConsultationCopyGate): void {
  gate = g;
}

/**
 * The consultation copies among the exams of `bucketIds` that the account may not see (a small
 * list: the copies of the open consultations those organizations take part in as target).
 */
export async function hiddenConsultationCopies(
  db: Db,
  account: { id: string },
  bucketIds: readonly string[],
): Promise<string[]> {
  if (!gate || bucketIds.length === 0) return [];
  return [...(await gate(db, account, bucketIds)).hidden];
}

/** Whether the account may see consultation copy `examId` of organization `bucketId`. */
export async function seesConsultationCopy(db: Db, accountId: string, bucketId: string, examId: string) {
  if (!gate) return false;
  return (await gate(db, { id: accountId }, [bucketId])).visible.has(examId);
}

/** Whether an open consultation still binds the copy (consultation_exams.shared_exam_id); registered by app.ts. */
export type ConsultationCopyBinding = (db: Db, copyExamId: string) => Promise<boolean>;

let binding: ConsultationCopyBinding | null = null;

/** Registers the consultations module's answer (app.ts, at wiring time). */
export function setConsultationCopyBinding(b: ConsultationCopyBinding): void {
  binding = b;
}

/** Whether a consultation still shares this copy (removeExamCopy keeps it then). */
export async function copyBoundToConsultation(db: Db, copyExamId: string): Promise<boolean> {
  return binding ? binding(db, copyExamId) : false;
}
