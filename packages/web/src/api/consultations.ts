import type {
  CallAnswer,
  CallBody,
  ConsultationBuckets,
  ConsultationDetail,
  ConsultationFile,
  ConsultationFilters,
  ConsultationListItem,
  ConsultationPage,
  CreateConsultation,
  Language,
  RatingConfig,
  UpdateConsultation,
} from '@yyp/contracts';
import { consultationCalls as calls } from '@yyp/contracts';
import { callApi } from './call';

/** Consultations (issue 25; contracts consultation-calls.ts): the list, the request, the detail and its parts. */

const one = (id: string) => ({ params: { id } });
const PDF_TIMEOUT_MS = 60_000;

type Body<K extends keyof typeof calls> = CallBody<(typeof calls)[K]>;
export type ConsultationTargets = CallAnswer<typeof calls.targets>['data'];
export type ConsultationTrace = CallAnswer<typeof calls.traces>['data'][number];
export type MemberCandidate = CallAnswer<typeof calls.memberCandidates>['data'][number];

/** consultations/query-page: one page of the list with its count (page size 20). */
export function queryConsultationPage(
  body: { skip: number; limit: number; filter: ConsultationFilters },
  signal?: AbortSignal,
): Promise<ConsultationPage> {
  return callApi(calls.page, { body }, { signal });
}

/** consultations/query: the background poll asks {limit 5, skip 0, filter {status {equal 0}}}. */
export function queryConsultations(
  body: { skip: number; limit: number; filter: ConsultationFilters },
  signal?: AbortSignal,
): Promise<ConsultationListItem[]> {
  return callApi(calls.query, { body }, { signal }).then((answer) => answer.data);
}

export function exportConsultations(filter: ConsultationFilters, language: Language): Promise<Blob> {
  return callApi(
    calls.export,
    { body: { filter, language } },
    { as: 'blob', timeoutMs: 120_000 },
  ) as Promise<unknown> as Promise<Blob>;
}

export function fetchConsultationBuckets(signal?: AbortSignal): Promise<ConsultationBuckets> {
  return callApi(calls.buckets, {}, { signal });
}

export function createConsultation(body: CreateConsultation): Promise<ConsultationDetail> {
  return callApi(calls.create, { body });
}

export function fetchConsultation(id: string, signal?: AbortSignal): Promise<ConsultationDetail> {
  return callApi(calls.detail, one(id), { signal });
}

/** The history consultation read through its link (/consultations/{id}/related/{linkId}). */
export function fetchRelatedConsultation(
  id: string,
  linkId: string,
  signal?: AbortSignal,
): Promise<ConsultationDetail> {
  return callApi(calls.related, { params: { id, linkId } }, { signal });
}

export function updateConsultation(id: string, body: UpdateConsultation): Promise<ConsultationDetail> {
  return callApi(calls.update, { ...one(id), body });
}

/** schedule (status 1, optionally a new time) or complete (status 2), at the version read. */
export function changeConsultationStatus(id: string, body: Body<'status'>): Promise<ConsultationDetail> {
  return callApi(calls.status, { ...one(id), body });
}

export function cancelConsultation(id: string, reason: string, version: number): Promise<ConsultationDetail> {
  return callApi(calls.cancel, { ...one(id), body: { reason, version } });
}

export function deleteConsultation(id: string): Promise<void> {
  return callApi(calls.delete, one(id)) as Promise<unknown> as Promise<void>;
}

export function saveSuggestion(id: string, body: Body<'suggestion'>): Promise<ConsultationDetail> {
  return callApi(calls.suggestion, { ...one(id), body });
}

export function saveResult(id: string, body: Body<'results'>): Promise<ConsultationDetail> {
  return callApi(calls.results, { ...one(id), body });
}

export function rateConsultation(id: string, body: Body<'rate'>): Promise<ConsultationDetail> {
  return callApi(calls.rate, { ...one(id), body });
}

export function saveVisit(id: string, body: Body<'visit'>): Promise<ConsultationDetail> {
  return callApi(calls.visit, { ...one(id), body });
}

export function addConsultationExams(id: string, examIds: string[]): Promise<ConsultationDetail> {
  return callApi(calls.addExams, { ...one(id), body: { examIds } });
}

export function removeConsultationExam(id: string, examId: string): Promise<ConsultationDetail> {
  return callApi(calls.removeExam, { params: { id, examId } });
}

export function addConsultationCase(id: string, body: Body<'addCase'>): Promise<ConsultationDetail> {
  return callApi(calls.addCase, { ...one(id), body });
}

export function removeConsultationCase(id: string, caseId: string): Promise<ConsultationDetail> {
  return callApi(calls.removeCase, { params: { id, caseId } });
}

export function upsertConsultationAttachment(id: string, body: Body<'upsertAttachment'>): Promise<ConsultationFile> {
  return callApi(calls.upsertAttachment, { ...one(id), body });
}

export function removeConsultationAttachment(id: string, fileId: string): Promise<void> {
  return callApi(calls.removeAttachment, { params: { id, fileId } }) as Promise<unknown> as Promise<void>;
}

export function fetchAttachmentUrl(id: string, fileId: string): Promise<{ url: string; expiresAt: string }> {
  return callApi(calls.attachmentUrl, { params: { id, fileId } });
}

export function addConsultationLink(id: string, linkedId: string): Promise<ConsultationDetail> {
  return callApi(calls.addLink, { ...one(id), body: { linkedId } });
}

export function removeConsultationLink(id: string, linkId: string): Promise<ConsultationDetail> {
  return callApi(calls.removeLink, { params: { id, linkId } });
}

export function fetchPastConsultations(
  consultationId: string,
  keyword: string,
  signal?: AbortSignal,
): Promise<ConsultationListItem[]> {
  return callApi(calls.past, { query: { consultationId, ...(keyword ? { keyword } : {}) } }, { signal }).then(
    (answer) => answer.data,
  );
}

export function setConsultationMembers(id: string, body: Body<'setMembers'>): Promise<ConsultationDetail> {
  return callApi(calls.setMembers, { ...one(id), body });
}

export function fetchMemberCandidates(id: string, signal?: AbortSignal): Promise<MemberCandidate[]> {
  return callApi(calls.memberCandidates, one(id), { signal }).then((answer) => answer.data);
}

export function fetchConsultationTraces(id: string, signal?: AbortSignal): Promise<ConsultationTrace[]> {
  return callApi(calls.traces, one(id), { signal }).then((answer) => answer.data);
}

/** The conclusion as a PDF in the organization's consultation layout. */
export function fetchConsultationPdf(id: string, language: Language): Promise<Blob> {
  return callApi(
    calls.print,
    { ...one(id), query: { language } },
    { as: 'blob', timeoutMs: PDF_TIMEOUT_MS },
  ) as Promise<unknown> as Promise<Blob>;
}

/* ---------- group settings ---------- */

export function fetchConsultationTargets(groupId: string, signal?: AbortSignal): Promise<ConsultationTargets> {
  return callApi(calls.targets, { params: { groupId } }, { signal }).then((answer) => answer.data);
}

export function addConsultationTarget(groupId: string, bucketId: string): Promise<ConsultationTargets> {
  return callApi(calls.addTarget, { params: { groupId }, body: { bucketId } }).then((answer) => answer.data);
}

export function removeConsultationTarget(groupId: string, bucketId: string): Promise<ConsultationTargets> {
  return callApi(calls.removeTarget, { params: { groupId, bucketId } }).then((answer) => answer.data);
}

export function fetchRatingConfig(groupId: string, signal?: AbortSignal): Promise<RatingConfig> {
  return callApi(calls.ratingConfig, { params: { groupId } }, { signal });
}

export function saveRatingConfig(groupId: string, body: RatingConfig): Promise<RatingConfig> {
  return callApi(calls.saveRatingConfig, { params: { groupId }, body });
}
