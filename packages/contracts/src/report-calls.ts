import { z } from 'zod';
import { defineCall } from './call.js';
import {
  diffTraceQuerySchema,
  diffTraceSchema,
  patchSampleGraphSchema,
  placeSampleGraphSchema,
  reportActionResultSchema,
  reportActionSchema,
  reportContentSchema,
  reportImageOrderSchema,
  reportImagePatchSchema,
  reportSampleGraphsSchema,
  reportSchema,
  reportSyncSchema,
  reportTraceDetailSchema,
  reportTraceSchema,
  worklistSchema,
} from './reports.js';
import { keyImageQuerySchema, reportImageSchema, reportImagesSchema } from './viewer.js';

const id = z.string().max(64);

/** Path parameters, each an id (≤ 64 characters): `idParams('reportId', 'traceId')`. */
export const idParams = <const K extends string>(...names: K[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, id])) as Record<K, typeof id>);

const reportParams = idParams('reportId');

const action = (path: `reports/:reportId/${string}`) =>
  defineCall({
    method: 'POST',
    path,
    params: reportParams,
    body: reportActionSchema,
    answer: reportActionResultSchema,
  });

/**
 * The report's calls (spec 001 §7 "Reports"), one entry each: the server's routes
 * (modules/reports/reports.routes.ts) and the web's client (api/reports.ts) are built from these.
 * The {reportId} is the primary exam's id.
 */
export const reportCalls = {
  detail: defineCall({ method: 'GET', path: 'reports/:reportId/detail', params: reportParams, answer: reportSchema }),
  content: defineCall({
    method: 'GET',
    path: 'reports/:reportId/content',
    params: reportParams,
    answer: z.object({ version: z.number().int(), content: reportContentSchema }),
  }),
  // The actions of spec 000 §4, one path each (REPORT_ACTION_PATHS names the same segments).
  save: action('reports/:reportId/save'),
  submit: action('reports/:reportId/submit'),
  approve: action('reports/:reportId/approve'),
  reject: action('reports/:reportId/reject'),
  advise: action('reports/:reportId/advise'),
  recall: action('reports/:reportId/recall'),
  cancelSubmit: action('reports/:reportId/cancelSubmit'),
  preliminaryIssue: action('reports/:reportId/preliminaryIssue'),
  approveAndPrint: action('reports/:reportId/approve-and-print'),
  lock: defineCall({ method: 'POST', path: 'reports/:reportId/lock', params: reportParams, answer: reportSchema }),
  unlock: defineCall({ method: 'POST', path: 'reports/:reportId/unlock', params: reportParams, answer: reportSchema }),
  forceUnlock: defineCall({
    method: 'POST',
    path: 'reports/:reportId/force-unlock',
    params: reportParams,
    answer: reportSchema,
  }),
  reset: defineCall({ method: 'POST', path: 'reports/:reportId/reset', params: reportParams, answer: reportSchema }),
  sync: defineCall({ method: 'POST', path: 'reports/:reportId/sync', params: reportParams, answer: reportSyncSchema }),
  traces: defineCall({
    method: 'GET',
    path: 'reports/:reportId/report-trace',
    params: reportParams,
    answer: reportTraceSchema,
  }),
  traceDetail: defineCall({
    method: 'GET',
    path: 'reports/:reportId/traces/:traceId',
    params: idParams('reportId', 'traceId'),
    answer: reportTraceDetailSchema,
  }),
  diffTrace: defineCall({
    method: 'GET',
    path: 'reports/:reportId/diff-trace',
    params: reportParams,
    query: diffTraceQuerySchema,
    answer: diffTraceSchema,
  }),
  worklist: defineCall({
    method: 'GET',
    path: 'reports/:reportId/worklist',
    params: reportParams,
    answer: worklistSchema,
  }),
  adviceExperts: defineCall({
    method: 'GET',
    path: 'reports/:reportId/advice-experts',
    params: reportParams,
    answer: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  sampleGraphs: defineCall({
    method: 'GET',
    path: 'reports/:reportId/sample-graphs',
    params: reportParams,
    answer: reportSampleGraphsSchema,
  }),
  placeSampleGraph: defineCall({
    method: 'POST',
    path: 'reports/:reportId/sample-graphs',
    params: reportParams,
    body: placeSampleGraphSchema,
    answer: reportSampleGraphsSchema,
  }),
  patchSampleGraph: defineCall({
    method: 'PATCH',
    path: 'reports/:reportId/sample-graphs/:placementId',
    params: idParams('reportId', 'placementId'),
    body: patchSampleGraphSchema,
    answer: reportSampleGraphsSchema,
  }),
  removeSampleGraph: defineCall({
    method: 'DELETE',
    path: 'reports/:reportId/sample-graphs/:placementId',
    params: idParams('reportId', 'placementId'),
    answer: reportSampleGraphsSchema,
  }),
  patchImage: defineCall({
    method: 'PATCH',
    path: 'reports/:reportId/images/:imageId',
    params: idParams('reportId', 'imageId'),
    body: reportImagePatchSchema,
    answer: reportImageSchema,
  }),
  orderImages: defineCall({
    method: 'POST',
    path: 'reports/:reportId/image-order',
    params: reportParams,
    body: reportImageOrderSchema,
    answer: reportImagesSchema,
  }),
  /** the body is the image itself (PNG or JPEG), not JSON */
  addImage: defineCall({
    method: 'POST',
    path: 'reports/:reportId/images',
    params: reportParams,
    query: keyImageQuerySchema,
    answer: reportImageSchema,
    status: 201,
  }),
} as const;
