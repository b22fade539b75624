import { z } from 'zod';
import { defineCall } from './call.js';
import {
  addConsultationTargetSchema,
  cancelConsultationSchema,
  consultationAttachmentDeleteParams,
  consultationAttachmentUpsertSchema,
  consultationBucketsSchema,
  consultationCaseInputSchema,
  consultationCountSchema,
  consultationDetailSchema,
  consultationExamsAddSchema,
  consultationExportSchema,
  consultationFiltersSchema,
  consultationFileSchema,
  consultationLinkAddSchema,
  consultationMembersSetSchema,
  consultationPageQuerySchema,
  consultationPageSchema,
  consultationPastQuerySchema,
  consultationPastSchema,
  consultationPrintQuerySchema,
  consultationQueryAnswerSchema,
  consultationQuerySchema,
  consultationRateSchema,
  consultationRelatedParams,
  consultationResultSchema,
  consultationStatusChangeSchema,
  consultationSuggestionSchema,
  consultationTargetsSchema,
  consultationTracesSchema,
  consultationVisitUpdateSchema,
  createConsultationSchema,
  ratingConfigSchema,
  updateConsultationSchema,
} from './consultation.js';
import { idParams } from './report-calls.js';

const one = idParams('id');
const groupParams = idParams('groupId');

/**
 * Consultations (spec 001 §7 "Consultations": query, query/count, query-page, create, detail,
 * suggestion, update, status, cancel, delete, visit, exams, cases, attachments/upsert, links, past,
 * members, results, telemed-video, export, traces, print, buckets; groups' consultation-targets and
 * rating-config). The video room (video-meetings/start, the per-room token, telemed-video) is in
 * video-calls.ts. The server's routes are in modules/consultations/.
 */
export const consultationCalls = {
  /** the list and the background poll ({limit 5, skip 0, filter {status {equal 0}}}) */
  query: defineCall({
    method: 'POST',
    path: 'consultations/query',
    body: consultationQuerySchema,
    answer: consultationQueryAnswerSchema,
  }),
  count: defineCall({
    method: 'POST',
    path: 'consultations/query/count',
    body: z.object({ filter: consultationFiltersSchema.default({}) }).strict(),
    answer: consultationCountSchema,
  }),
  page: defineCall({
    method: 'POST',
    path: 'consultations/query-page',
    body: consultationPageQuerySchema,
    answer: consultationPageSchema,
  }),
  create: defineCall({
    method: 'POST',
    path: 'consultations',
    body: createConsultationSchema,
    answer: consultationDetailSchema,
    status: 201,
  }),
  detail: defineCall({ method: 'GET', path: 'consultations/:id', params: one, answer: consultationDetailSchema }),
  update: defineCall({
    method: 'PUT',
    path: 'consultations/:id',
    params: one,
    body: updateConsultationSchema,
    answer: consultationDetailSchema,
  }),
  status: defineCall({
    method: 'POST',
    path: 'consultations/:id/status',
    params: one,
    body: consultationStatusChangeSchema,
    answer: consultationDetailSchema,
  }),
  cancel: defineCall({
    method: 'POST',
    path: 'consultations/:id/cancel',
    params: one,
    body: cancelConsultationSchema,
    answer: consultationDetailSchema,
  }),
  delete: defineCall({ method: 'DELETE', path: 'consultations/:id', params: one, status: 204 }),
  suggestion: defineCall({
    method: 'PUT',
    path: 'consultations/:id/suggestion',
    params: one,
    body: consultationSuggestionSchema,
    answer: consultationDetailSchema,
  }),
  results: defineCall({
    method: 'PUT',
    path: 'consultations/:id/results',
    params: one,
    body: consultationResultSchema,
    answer: consultationDetailSchema,
  }),
  rate: defineCall({
    method: 'POST',
    path: 'consultations/:id/rating',
    params: one,
    body: consultationRateSchema,
    answer: consultationDetailSchema,
  }),
  visit: defineCall({
    method: 'PUT',
    path: 'consultations/:id/visit',
    params: one,
    body: consultationVisitUpdateSchema,
    answer: consultationDetailSchema,
  }),
  addExams: defineCall({
    method: 'POST',
    path: 'consultations/:id/exams',
    params: one,
    body: consultationExamsAddSchema,
    answer: consultationDetailSchema,
  }),
  removeExam: defineCall({
    method: 'DELETE',
    path: 'consultations/:id/exams/:examId',
    params: idParams('id', 'examId'),
    answer: consultationDetailSchema,
  }),
  addCase: defineCall({
    method: 'POST',
    path: 'consultations/:id/cases',
    params: one,
    body: consultationCaseInputSchema,
    answer: consultationDetailSchema,
    status: 201,
  }),
  removeCase: defineCall({
    method: 'DELETE',
    path: 'consultations/:id/cases/:caseId',
    params: idParams('id', 'caseId'),
    answer: consultationDetailSchema,
  }),
  /** a case document's file (caseId) or a result attachment; see consultationAttachmentUpsertSchema */
  upsertAttachment: defineCall({
    method: 'POST',
    path: 'consultations/:id/attachments/upsert',
    params: one,
    body: consultationAttachmentUpsertSchema,
    answer: consultationFileSchema,
  }),
  removeAttachment: defineCall({
    method: 'DELETE',
    path: 'consultations/:id/attachments/:fileId',
    params: consultationAttachmentDeleteParams,
    status: 204,
  }),
  /** a short-lived URL of a file (previewed in the browser when it can: images, PDF) */
  attachmentUrl: defineCall({
    method: 'GET',
    path: 'consultations/:id/attachments/:fileId/url',
    params: consultationAttachmentDeleteParams,
    answer: z.object({ url: z.string(), expiresAt: z.string() }),
  }),
  addLink: defineCall({
    method: 'POST',
    path: 'consultations/:id/links',
    params: one,
    body: consultationLinkAddSchema,
    answer: consultationDetailSchema,
    status: 201,
  }),
  removeLink: defineCall({
    method: 'DELETE',
    path: 'consultations/:id/links/:linkId',
    params: consultationRelatedParams,
    answer: consultationDetailSchema,
  }),
  /** /consultations/{id}/related/{linkId}: the history consultation, read through the link */
  related: defineCall({
    method: 'GET',
    path: 'consultations/:id/related/:linkId',
    params: consultationRelatedParams,
    answer: consultationDetailSchema,
  }),
  past: defineCall({
    method: 'GET',
    path: 'consultations/past',
    query: consultationPastQuerySchema,
    answer: consultationPastSchema,
  }),
  setMembers: defineCall({
    method: 'PUT',
    path: 'consultations/:id/members',
    params: one,
    body: consultationMembersSetSchema,
    answer: consultationDetailSchema,
  }),
  /** the accounts of the target organization who may be named experts or joiners */
  memberCandidates: defineCall({
    method: 'GET',
    path: 'consultations/:id/members/candidates',
    params: one,
    answer: z.object({ data: z.array(z.object({ accountId: z.string(), name: z.string(), canWrite: z.boolean() })) }),
  }),
  traces: defineCall({
    method: 'GET',
    path: 'consultations/:id/traces',
    params: one,
    answer: consultationTracesSchema,
  }),
  /** the conclusion as a PDF in the organization's consultation layout (layout type 3) */
  print: defineCall({
    method: 'GET',
    path: 'consultations/:id/print',
    params: one,
    query: consultationPrintQuerySchema,
  }),
  /** the list with its filters as .xlsx */
  export: defineCall({ method: 'POST', path: 'consultations/export', body: consultationExportSchema }),
  buckets: defineCall({ method: 'GET', path: 'consultations/buckets', answer: consultationBucketsSchema }),

  targets: defineCall({
    method: 'GET',
    path: 'groups/:groupId/consultation-targets',
    params: groupParams,
    answer: consultationTargetsSchema,
  }),
  addTarget: defineCall({
    method: 'POST',
    path: 'groups/:groupId/consultation-targets',
    params: groupParams,
    body: addConsultationTargetSchema,
    answer: consultationTargetsSchema,
  }),
  removeTarget: defineCall({
    method: 'DELETE',
    path: 'groups/:groupId/consultation-targets/:bucketId',
    params: idParams('groupId', 'bucketId'),
    answer: consultationTargetsSchema,
  }),
  ratingConfig: defineCall({
    method: 'GET',
    path: 'groups/:groupId/rating-config',
    params: groupParams,
    answer: ratingConfigSchema,
  }),
  saveRatingConfig: defineCall({
    method: 'PUT',
    path: 'groups/:groupId/rating-config',
    params: groupParams,
    body: ratingConfigSchema,
    answer: ratingConfigSchema,
  }),
} as const;
