import { defineCall } from './call.js';
import { idParams } from './report-calls.js';
import {
  criticalValueListSchema,
  criticalValueSchema,
  criticalValueStatsQuerySchema,
  criticalValueStatsSchema,
  handleCriticalValueSchema,
  qualityPageBodySchema,
  qualityPageQuerySchema,
  qualityPageSchema,
  qualityUpsertSchema,
  receiveCriticalValueSchema,
  reportCommentBodySchema,
  reportCommentSchema,
  reportCommentsSchema,
  reportCriticalValueSchema,
  reportQualityAnswerSchema,
  reportQualitySchema,
  reportRatingBodySchema,
  reportRatingSchema,
  reportRatingsSchema,
  reportTableColorBodySchema,
  reportTableColorQuerySchema,
  reportTableColorSchema,
  reportTableColorsSchema,
} from './report-safety.js';
import { criticalValuePageBodySchema, criticalValuePageSchema } from './safety-review.js';

const params = idParams('reportId');
const criticalParams = idParams('reportId', 'criticalId');
const colorParams = idParams('colorId');

/**
 * Clinical safety around a report (spec 001 §7 "Reports": critical-value, quality, rating, comment;
 * report-table-color; statistics critical-value): the server's routes
 * (modules/report-safety/report-safety.routes.ts) and the web's client (api/reportSafety.ts,
 * api/safetyReview.ts) are built from these. The {reportId} is the primary exam's id.
 */
export const reportSafetyCalls = {
  reportCritical: defineCall({
    method: 'POST',
    path: 'reports/:reportId/critical-value',
    params,
    body: reportCriticalValueSchema,
    answer: criticalValueSchema,
    status: 201,
  }),
  criticals: defineCall({
    method: 'GET',
    path: 'reports/:reportId/critical-values',
    params,
    answer: criticalValueListSchema,
  }),
  receiveCritical: defineCall({
    method: 'POST',
    path: 'reports/:reportId/critical-values/:criticalId/receive',
    params: criticalParams,
    body: receiveCriticalValueSchema,
    answer: criticalValueSchema,
  }),
  handleCritical: defineCall({
    method: 'POST',
    path: 'reports/:reportId/critical-values/:criticalId/handle',
    params: criticalParams,
    body: handleCriticalValueSchema,
    answer: criticalValueSchema,
  }),
  criticalPage: defineCall({
    method: 'POST',
    path: 'critical-values/page-query',
    body: criticalValuePageBodySchema,
    answer: criticalValuePageSchema,
  }),
  criticalStats: defineCall({
    method: 'GET',
    path: 'statistics/critical-value',
    query: criticalValueStatsQuerySchema,
    answer: criticalValueStatsSchema,
  }),

  quality: defineCall({ method: 'GET', path: 'reports/:reportId/quality', params, answer: reportQualityAnswerSchema }),
  saveQuality: defineCall({
    method: 'POST',
    path: 'reports/:reportId/quality',
    params,
    body: qualityUpsertSchema,
    answer: reportQualitySchema,
  }),
  deleteQuality: defineCall({ method: 'DELETE', path: 'reports/:reportId/quality', params, status: 204 }),
  qualityPage: defineCall({
    method: 'POST',
    path: 'quality/page-query',
    query: qualityPageQuerySchema,
    body: qualityPageBodySchema,
    answer: qualityPageSchema,
  }),

  rate: defineCall({
    method: 'POST',
    path: 'reports/:reportId/rating',
    params,
    body: reportRatingBodySchema,
    answer: reportRatingSchema,
    status: 201,
  }),
  ratings: defineCall({ method: 'GET', path: 'reports/:reportId/ratings', params, answer: reportRatingsSchema }),
  comments: defineCall({ method: 'GET', path: 'reports/:reportId/comments', params, answer: reportCommentsSchema }),
  comment: defineCall({
    method: 'POST',
    path: 'reports/:reportId/comment',
    params,
    body: reportCommentBodySchema,
    answer: reportCommentSchema,
    status: 201,
  }),
  deleteComment: defineCall({
    method: 'DELETE',
    path: 'reports/:reportId/comments/:commentId',
    params: idParams('reportId', 'commentId'),
    status: 204,
  }),

  tableColors: defineCall({
    method: 'GET',
    path: 'report-table-color',
    query: reportTableColorQuerySchema,
    answer: reportTableColorsSchema,
  }),
  addTableColor: defineCall({
    method: 'POST',
    path: 'report-table-color',
    query: reportTableColorQuerySchema,
    body: reportTableColorBodySchema,
    answer: reportTableColorSchema,
    status: 201,
  }),
  updateTableColor: defineCall({
    method: 'PUT',
    path: 'report-table-color/:colorId',
    params: colorParams,
    body: reportTableColorBodySchema,
    answer: reportTableColorSchema,
  }),
  deleteTableColor: defineCall({
    method: 'DELETE',
    path: 'report-table-color/:colorId',
    params: colorParams,
    status: 204,
  }),
} as const;
