import { z } from 'zod';
import {
  downloadTokenQuerySchema,
  downloadTokenSchema,
  studyPackageQuerySchema,
  viewerPathRequestSchema,
  viewerPathSchema,
} from './archive.js';
import { defineCall } from './call.js';
import {
  addCoExamsSchema,
  addTagSchema,
  assignRequestSchema,
  assignResultSchema,
  coExamsSchema,
  examDetailQuerySchema,
  examDetailSchema,
  examUpdateSchema,
  exportExamsSchema,
  reporterSchema,
  reportersQuerySchema,
} from './exam-detail.js';
import {
  examCountSchema,
  examDeletedSchema,
  examItemSchema,
  examPageSchema,
  examQuerySchema,
  examsNewlySchema,
  examTagSchema,
  modifyPrintStatusResultSchema,
  modifyPrintStatusSchema,
  pastExamsQuerySchema,
} from './exams.js';

const id = z.string().max(64);
/** the study list's and the detail drawer's calls bound the id; the package, viewer and merge calls do not */
const examParams = z.object({ examId: id });
const anyExamParams = z.object({ examId: z.string() });
const pairParams = z.object({ examId: z.string(), otherId: z.string() });

/** A study list query (page-query, deleted-query, query/count): the list's body, a page or a count. */
const listQuery = <A extends z.ZodType>(path: `exams/${string}`, answer: A) =>
  defineCall({ method: 'POST', path, body: examQuerySchema, answer });

/**
 * The exams' calls (spec 001 §7 "Exams", and the reports/{id} prefix of "Reports" where the {id} is
 * the exam's: a report's id is its primary exam's). The server's routes (modules/exams/exams.list.routes.ts,
 * exams.manage.routes.ts, exams.routes.ts) and the web's client (api/exams.ts) are built from these.
 */
export const examCalls = {
  // The study list (exams.list.routes.ts).
  page: listQuery('exams/page-query', examPageSchema),
  count: listQuery('exams/query/count', examCountSchema),
  deletedPage: listQuery('exams/deleted-query', examPageSchema),
  modifyPrintStatus: defineCall({
    method: 'POST',
    path: 'exams/modify-print-status',
    body: modifyPrintStatusSchema,
    answer: modifyPrintStatusResultSchema,
  }),
  newly: defineCall({ method: 'POST', path: 'exams/newly', body: examsNewlySchema, answer: examPageSchema }),
  past: defineCall({
    method: 'POST',
    path: 'exams/:examId/past',
    params: examParams,
    body: pastExamsQuerySchema,
    answer: examPageSchema,
  }),
  pastCount: defineCall({
    method: 'POST',
    path: 'exams/:examId/past/count',
    params: examParams,
    answer: examCountSchema,
  }),
  get: defineCall({ method: 'GET', path: 'exams/:examId', params: examParams, answer: examItemSchema }),
  softDelete: defineCall({
    method: 'DELETE',
    path: 'exams/:examId/delete',
    params: examParams,
    answer: examDeletedSchema,
  }),
  recover: defineCall({ method: 'POST', path: 'reports/:examId/recovery', params: examParams, answer: examItemSchema }),
  /** removes a deleted exam for good; 204 */
  destroy: defineCall({ method: 'POST', path: 'reports/:examId/delete', params: examParams, status: 204 }),

  // The exam detail drawer (exams.manage.routes.ts).
  detail: defineCall({
    method: 'GET',
    path: 'exams/:examId/detail',
    params: examParams,
    query: examDetailQuerySchema,
    answer: examDetailSchema,
  }),
  update: defineCall({
    method: 'POST',
    path: 'exams/:examId',
    params: examParams,
    body: examUpdateSchema,
    answer: examDetailSchema,
  }),
  /** bucketIds repeats in the query (bucketIds=a&bucketIds=b) */
  reporters: defineCall({
    method: 'GET',
    path: 'buckets/accounts/report_save',
    query: reportersQuerySchema,
    answer: z.array(reporterSchema),
  }),
  assign: defineCall({
    method: 'POST',
    path: 'reports/:examId/assign',
    params: examParams,
    body: assignRequestSchema,
    answer: assignResultSchema,
  }),
  assignRemove: defineCall({
    method: 'POST',
    path: 'reports/:examId/assign-remove',
    params: examParams,
    answer: assignResultSchema,
  }),
  addTag: defineCall({
    method: 'POST',
    path: 'reports/:examId/tags',
    params: examParams,
    body: addTagSchema,
    answer: z.array(examTagSchema),
  }),
  removeTag: defineCall({
    method: 'DELETE',
    path: 'reports/:examId/tags/:tagId',
    params: z.object({ examId: id, tagId: id }),
    answer: z.array(examTagSchema),
  }),
  coExams: defineCall({
    method: 'GET',
    path: 'exams/:examId/co-exams',
    params: examParams,
    query: examDetailQuerySchema,
    answer: coExamsSchema,
  }),
  addCoExams: defineCall({
    method: 'POST',
    path: 'reports/:examId/co-exams/add',
    params: examParams,
    body: addCoExamsSchema,
    answer: coExamsSchema,
  }),

  // Viewer paths, packages and merging (exams.routes.ts); binding is binding-calls.ts.
  viewerPath: defineCall({
    method: 'POST',
    path: 'viewers/:examId/path',
    params: anyExamParams,
    body: viewerPathRequestSchema,
    answer: viewerPathSchema,
  }),
  sharePath: defineCall({
    method: 'POST',
    path: 'viewers/:examId/share-path',
    params: anyExamParams,
    body: viewerPathRequestSchema,
    answer: viewerPathSchema,
  }),
  /** answers the zip itself */
  studyPackage: defineCall({
    method: 'GET',
    path: 'exams/:examId/study-package',
    params: anyExamParams,
    query: studyPackageQuerySchema,
  }),
  downloadToken: defineCall({
    method: 'GET',
    path: 'studies/download-token',
    query: downloadTokenQuerySchema,
    answer: downloadTokenSchema,
  }),
  /** public: the token is the credential; answers the zip itself */
  download: defineCall({ method: 'GET', path: 'studies/download', query: z.object({ token: z.string().max(4096) }) }),
  merge: defineCall({
    method: 'POST',
    path: 'exams/:examId/merge-study/:otherId',
    params: pairParams,
    answer: z.object({
      id: z.string(),
      storeUid: z.string(),
      seriesCount: z.number().int(),
      instanceCount: z.number().int(),
    }),
  }),
} as const;

/** Exports (spec 001 §7 "POST exports/exams (binary answer)"): the filtered study list as .xlsx. */
export const exportCalls = {
  exams: defineCall({ method: 'POST', path: 'exports/exams', body: exportExamsSchema }),
} as const;
