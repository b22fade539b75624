import { UPLOAD_CORRECTION_FIELDS, type UploadCorrection } from '@yyp/contracts';
import { nameInitials } from '../archive/index.js';

/** The exam columns a correction may change, as the exam row names them. */
export interface CorrectedColumns {
  patientName?: string;
  patientNamePinyin?: string;
  patientId?: string;
  patientGender?: string;
  patientDob?: string;
  accessionNumber?: string;
}

export type ExamValues = Record<(typeof UPLOAD_CORRECTION_FIELDS)[number], string>;

/** What a correction changes on one exam: the differing fields, old → new (for the audit row). */
export function correctionDiff(
  exam: ExamValues,
  correction: UploadCorrection,
): { change: CorrectedColumns; fields: Record<string, { from: string; to: string }> } {
  const change: CorrectedColumns = {};
  const fields: Record<string, { from: string; to: string }> = {};
  for (const field of UPLOAD_CORRECTION_FIELDS) {
    const to = correction[field];
    if (to === undefined || to === exam[field]) continue;
    change[field] = to;
    fields[field] = { from: exam[field], to };
  }
  if (change.patientName !== undefined) change.patientNamePinyin = nameInitials(change.patientName);
  return { change, fields };
}

/** A correction that sets nothing (every field left as in the files). */
export const isEmptyCorrection = (c: UploadCorrection | undefined): boolean =>
  !c || UPLOAD_CORRECTION_FIELDS.every((f) => c[f] === undefined);
