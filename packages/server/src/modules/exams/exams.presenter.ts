import {
  AI_STATUSES,
  maskIdentifier,
  maskPatientName,
  privateFieldsMasked,
  RECOVERY_DAYS,
  REPORT_STATUSES,
  UPLOAD_STATUSES,
  type ExamItem,
  type ExamTag,
  type PrivacyContext,
} from '@yyp/contracts';

const DAY_MS = 86_400_000;
const DA = /^(\d{4})(\d{2})(\d{2})$/;

function parseDa(value: string): { y: number; m: number; d: number } | null {
  const match = DA.exec(value.trim());
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return { y, m, d };
}

/**
 * The patient's age at the study, as DICOM writes PatientAge (AS): years from one year on (045Y),
 * else months (006M), else weeks (003W), else days (005D). From the birth date (DA) and the
 * study date, or the arrival day without a study date; null without a valid birth date or when
 * the birth date falls after the study.
 */
export function examAge(dob: string, studyDate: string, created: Date): string | null {
  const birth = parseDa(dob);
  if (!birth) return null;
  const at = parseDa(studyDate) ?? {
    y: created.getUTCFullYear(),
    m: created.getUTCMonth() + 1,
    d: created.getUTCDate(),
  };
  const days = (Date.UTC(at.y, at.m - 1, at.d) - Date.UTC(birth.y, birth.m - 1, birth.d)) / DAY_MS;
  if (days < 0) return null;
  let months = (at.y - birth.y) * 12 + (at.m - birth.m);
  if (at.d < birth.d) months -= 1;
  const pad = (n: number, unit: string) => `${String(Math.min(n, 999)).padStart(3, '0')}${unit}`;
  if (months >= 12) return pad(Math.floor(months / 12), 'Y');
  if (months >= 1) return pad(months, 'M');
  if (days >= 7) return pad(Math.floor(days / 7), 'W');
  return pad(days, 'D');
}

/** The patient as a report's or viewer's page shows them: name and ID masked where `masked`, sex, age at the exam. */
export function shownPatient(
  exam: {
    patientName: string;
    patientId: string;
    patientGender: string;
    patientDob: string;
    studyDate: string;
    created: Date;
  },
  masked: boolean,
) {
  return {
    patientName: masked ? maskPatientName(exam.patientName) : exam.patientName,
    patientId: masked ? maskIdentifier(exam.patientId) : exam.patientId,
    patientSex: exam.patientGender,
    patientAge: examAge(exam.patientDob, exam.studyDate, exam.created) ?? '',
  };
}

export interface ExamListRow {
  id: string;
  storeUid: string;
  bucketId: string;
  bucketName: string;
  patientName: string;
  patientId: string;
  patientGender: string;
  patientDob: string;
  accessionNumber: string;
  modality: string;
  bodyPart: string;
  studyDate: string;
  studyTime: string;
  studyDesc: string;
  created: Date;
  hasImage: boolean;
  uploadStatus: string;
  studyPrinted: boolean;
  seriesCount: number;
  instanceCount: number;
  deletedTime: Date | null;
  groupId: string;
  patientSource: string;
  applyDept: string;
  orderPlacer: string;
  urgentFlag: boolean;
  teleMedFlag: boolean;
  isPrivacy: boolean;
  criticalFlag: boolean;
  reportStatus: string;
  assigneeId: string | null;
  assigneeName: string | null;
  aiStatus: string;
  /** the tags as JSON text [{id, name, color}] or null */
  tagsJson: string | null;
}

const uploadStatus = (s: string): ExamItem['uploadStatus'] =>
  (UPLOAD_STATUSES as readonly string[]).includes(s) ? (s as ExamItem['uploadStatus']) : 'completed';
const reportStatus = (s: string): ExamItem['reportStatus'] =>
  (REPORT_STATUSES as readonly string[]).includes(s) ? (s as ExamItem['reportStatus']) : 'none';
const aiStatus = (s: string): ExamItem['aiStatus'] =>
  (AI_STATUSES as readonly string[]).includes(s) ? (s as ExamItem['aiStatus']) : '';

function parseTags(json: string | null): ExamTag[] {
  if (!json) return [];
  return (JSON.parse(json) as { id: string; name: string; color: string | null }[]).map((t) => ({
    id: t.id,
    name: t.name,
    color: t.color ?? null,
  }));
}

/** The caller's privacy facts per organization (bucket id → platform/authz privacyOf). */
export type PrivacyByBucket = ReadonlyMap<string, PrivacyContext>;

/**
 * Whether the list shows this exam's private fields masked, by the one rule (contracts
 * privateFieldsMasked); an organization the caller has no facts for masks.
 */
export function listMasked(row: Pick<ExamListRow, 'isPrivacy' | 'bucketId'>, privacy: PrivacyByBucket): boolean {
  const ctx = privacy.get(row.bucketId);
  return !ctx || privateFieldsMasked(ctx, row);
}

/**
 * One study-list row as the contract shapes it. When `masked` (see listMasked) the patient name,
 * patient id and accession number are masked and the birth date left out (the age still shows):
 * the same masking as every other answer (contracts privacy.ts).
 */
export function presentExam(
  row: ExamListRow,
  masked: boolean,
  rowColor: ExamItem['rowColor'] = null,
  reportColor: ExamItem['reportColor'] = null,
): ExamItem {
  return {
    id: row.id,
    storeUid: row.storeUid,
    bucketId: row.bucketId,
    bucketName: row.bucketName,
    patientName: masked ? maskPatientName(row.patientName) : row.patientName,
    patientId: masked ? maskIdentifier(row.patientId) : row.patientId,
    patientGender: row.patientGender,
    patientDob: masked ? '' : row.patientDob,
    age: examAge(row.patientDob, row.studyDate, row.created),
    accessionNumber: masked ? maskIdentifier(row.accessionNumber) : row.accessionNumber,
    modality: row.modality,
    bodyPart: row.bodyPart,
    studyDate: row.studyDate,
    studyTime: row.studyTime,
    studyDesc: row.studyDesc,
    created: row.created.toISOString(),
    hasImage: row.hasImage,
    uploadStatus: uploadStatus(row.uploadStatus),
    printed: row.studyPrinted,
    seriesCount: row.seriesCount,
    instanceCount: row.instanceCount,
    patientSource: row.patientSource,
    applyDept: row.applyDept,
    orderPlacer: row.orderPlacer,
    urgentFlag: row.urgentFlag,
    teleMedFlag: row.teleMedFlag,
    isPrivacy: row.isPrivacy,
    critical: row.criticalFlag,
    reportStatus: reportStatus(row.reportStatus),
    assigneeId: row.assigneeId,
    assigneeName: row.assigneeName,
    aiStatus: aiStatus(row.aiStatus),
    tags: parseTags(row.tagsJson),
    rowColor,
    reportColor,
    masked,
    deletedTime: row.deletedTime ? row.deletedTime.toISOString() : null,
    recoverableUntil: row.deletedTime
      ? new Date(row.deletedTime.getTime() + RECOVERY_DAYS * DAY_MS).toISOString()
      : null,
  };
}
