import {
  CONSULTATION_CASE_TYPES,
  CONSULTATION_GENDERS,
  CONSULTATION_UPLOAD_STATUSES,
  allowedConsultationOps,
  type ConsultationCaseType,
  type ConsultationDetail,
  type ConsultationFee,
  type ConsultationFile,
  type ConsultationListItem,
  type ConsultationStatus,
} from '@yyp/contracts';
import type { ConsultationRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import type { ConsultationContext } from './consultation-access.js';
import { feesOf } from './consultation-fee.js';
import * as store from './consultations.store.js';

const iso = (d: Date) => d.toISOString();

/** The list's rows (and the poll's): names of both organizations, the experts and the creator. */
export async function listItems(
  db: Db,
  rows: ConsultationRow[],
  known?: Map<string, ConsultationFee>,
): Promise<ConsultationListItem[]> {
  if (rows.length === 0) return [];
  const [names, members, creators, fees] = await Promise.all([
    store.bucketNames(
      db,
      rows.flatMap((r) => [r.sourceBucketId, r.targetBucketId]),
    ),
    store.membersOf(
      db,
      rows.map((r) => r.id),
    ),
    store.accountNames(
      db,
      rows.map((r) => r.creatorId),
    ),
    known ??
      feesOf(
        db,
        rows.map((r) => r.id),
      ),
  ]);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    status: r.status as ConsultationStatus,
    patientName: r.patientName,
    created: iso(r.created),
    scheduledAt: iso(r.scheduledAt),
    reason: r.reason,
    sourceBucketId: r.sourceBucketId,
    appliedBucketName: names.get(r.sourceBucketId) ?? '',
    targetBucketId: r.targetBucketId,
    joinedBuckets: [
      {
        bucketId: r.targetBucketId,
        bucketName: names.get(r.targetBucketId) ?? '',
        experts: members.filter((m) => m.consultationId === r.id && m.role === 'expert').map((m) => m.name),
      },
    ],
    creatorName: (r.creatorId && creators.get(r.creatorId)) || '',
    rating: r.ratingScore,
    paymentStatus: fees.get(r.id)?.paymentStatus ?? null,
  }));
}

const gender = (g: string) =>
  (CONSULTATION_GENDERS as readonly string[]).includes(g) ? (g as (typeof CONSULTATION_GENDERS)[number]) : '';
const caseType = (t: string): ConsultationCaseType =>
  (CONSULTATION_CASE_TYPES as readonly string[]).includes(t) ? (t as ConsultationCaseType) : 'other';
const uploadStatus = (s: string) =>
  (CONSULTATION_UPLOAD_STATUSES as readonly string[]).includes(s)
    ? (s as (typeof CONSULTATION_UPLOAD_STATUSES)[number])
    : 'processing';

/** The fee as the caller's side sees it: the source exam it names (its payment page) only for the requester. */
function feeFor(fee: ConsultationFee | undefined, requester: boolean): ConsultationFee | null {
  if (!fee) return null;
  return requester ? fee : { ...fee, examId: '' };
}

/**
 * The consultation as the caller sees it: every part, its roles and what it may do now (`can`).
 * A bound exam opens as the source's exam for the requester, as the shared copy for the target's
 * side (null once unshared).
 */
export async function detailOf(db: Db, context: ConsultationContext): Promise<ConsultationDetail> {
  const { row, facts, roles } = context;
  const fees = await feesOf(db, [row.id]);
  const [[item], members, exams, cases, files, links, names] = await Promise.all([
    listItems(db, [row], fees),
    store.membersOf(db, [row.id]),
    store.boundExamsOf(db, row.id),
    store.casesOf(db, row.id),
    store.filesOf(db, row.id),
    store.linksOf(db, row.id),
    store.accountNames(db, [row.resultBy, row.ratedBy]),
  ]);
  const targetName = item!.joinedBuckets[0]!.bucketName;
  const fileOut = (f: (typeof files)[number]): ConsultationFile => ({
    id: f.id,
    fileName: f.fileName,
    size: Number(f.size),
    fileType: f.fileType,
    uploadStatus: uploadStatus(f.uploadStatus),
    createdAt: iso(f.created),
    createdByName: f.createdByName,
  });
  return {
    ...item!,
    version: row.version,
    groupId: row.groupId,
    patient: {
      name: row.patientName,
      age: row.patientAge,
      gender: gender(row.patientGender),
      tel: row.patientTel,
      email: row.patientEmail,
      contactHospital: row.contactHospital,
    },
    note: row.note,
    clinicImpression: row.clinicImpression,
    cancelReason: row.cancelReason,
    creatorId: row.creatorId,
    updated: iso(row.updated),
    suggestion: row.suggestion,
    treatmentPlan: row.treatmentPlan,
    result: row.result,
    resultByName: (row.resultBy && names.get(row.resultBy)) || '',
    resultAt: row.resultAt ? iso(row.resultAt) : null,
    ratingDetail:
      row.ratingScore !== null
        ? {
            score: row.ratingScore,
            comment: row.ratingComment,
            ratedAt: iso(row.ratedAt ?? row.updated),
            ratedByName: (row.ratedBy && names.get(row.ratedBy)) || '',
          }
        : null,
    visit: {
      hospital: row.visitHospital,
      time: row.visitTime ? iso(row.visitTime) : null,
      department: row.visitDepartment,
      reason: row.visitReason,
    },
    members: members.map((m) => ({
      accountId: m.accountId,
      name: m.name,
      role: m.role === 'joiner' ? 'joiner' : 'expert',
      bucketId: row.targetBucketId,
      bucketName: targetName,
    })),
    exams: exams.map((e) => ({
      examId: e.examId,
      name: e.name,
      modality: e.modality,
      bodyPart: e.bodyPart,
      studyDate: e.studyDate,
      openExamId: facts.requester ? e.examId : e.sharedExamId,
      boundAt: iso(e.created),
    })),
    cases: cases.map((c) => ({
      id: c.id,
      name: c.name,
      type: caseType(c.type),
      note: c.note,
      files: files.filter((f) => f.caseId === c.id).map(fileOut),
      createdAt: iso(c.created),
    })),
    resultAttachments: files.filter((f) => f.caseId === null).map(fileOut),
    links: links.map((l) => ({
      id: l.id,
      linkedId: l.linked.id,
      title: l.linked.title,
      patientName: l.linked.patientName,
      status: l.linked.status as ConsultationStatus,
      scheduledAt: iso(l.linked.scheduledAt),
      result: l.linked.result,
    })),
    originExamId: row.originExamId,
    originReportId: row.originReportId,
    fee: feeFor(fees.get(row.id), roles.includes('requester')),
    can: allowedConsultationOps(facts),
    roles,
  };
}
