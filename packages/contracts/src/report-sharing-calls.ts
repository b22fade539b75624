import { z } from 'zod';
import { defineCall } from './call.js';
import { idParams } from './report-calls.js';
import {
  publishDetailQuerySchema,
  publishDetailSchema,
  publishedCoExamSchema,
  publishedPastExamSchema,
  publishersQuerySchema,
  publishPageQuerySchema,
  publishPageSchema,
  publishReportsRequestSchema,
  publishResultSchema,
  sharedReportSchema,
  shareLinkCreatedSchema,
  shareLinkSchema,
  shareLinksSchema,
  shareReportQuerySchema,
  shareReportRequestSchema,
  webReportQuerySchema,
  webSecretSchema,
  webSecretStatusSchema,
} from './report-sharing.js';

const params = idParams('reportId');
const groupParams = idParams('groupId');

/**
 * Sharing and publishing (spec 001 §7 share/report, publishers/*, orders/publish-reports; spec 000
 * §2 /reports/s, /web, /report-publish): the server's routes
 * (modules/report-sharing/report-sharing.routes.ts) and the web's client
 * (features/sharing/sharingApi.ts) are built from these. share/report, publishers/* and web-report
 * are public (spec 001 §8): the link, or the signature, is the credential.
 */
export const reportSharingCalls = {
  share: defineCall({
    method: 'POST',
    path: 'reports/:reportId/share',
    params,
    body: shareReportRequestSchema,
    answer: shareLinkCreatedSchema,
    status: 201,
  }),
  shares: defineCall({ method: 'GET', path: 'reports/:reportId/shares', params, answer: shareLinksSchema }),
  revokeShare: defineCall({
    method: 'POST',
    path: 'reports/:reportId/shares/:shareId/revoke',
    params: idParams('reportId', 'shareId'),
    answer: shareLinkSchema,
  }),

  publish: defineCall({
    method: 'POST',
    path: 'orders/publish-reports',
    body: publishReportsRequestSchema,
    answer: publishResultSchema,
  }),
  publishPage: defineCall({
    method: 'POST',
    path: 'report-publish/page-query',
    body: publishPageQuerySchema,
    answer: publishPageSchema,
  }),
  publishDetail: defineCall({
    method: 'GET',
    path: 'report-publish/detail',
    query: publishDetailQuerySchema,
    answer: publishDetailSchema,
  }),

  webSecretStatus: defineCall({
    method: 'GET',
    path: 'groups/:groupId/integration/web-secret',
    params: groupParams,
    answer: webSecretStatusSchema,
  }),
  rotateWebSecret: defineCall({
    method: 'POST',
    path: 'groups/:groupId/integration/web-secret',
    params: groupParams,
    answer: webSecretSchema,
  }),

  sharedReport: defineCall({
    method: 'GET',
    path: 'share/report',
    query: shareReportQuerySchema,
    answer: sharedReportSchema,
  }),
  coExams: defineCall({
    method: 'GET',
    path: 'publishers/find-co-exams',
    query: publishersQuerySchema,
    answer: z.array(publishedCoExamSchema),
  }),
  pastExams: defineCall({
    method: 'GET',
    path: 'publishers/find-past-exams',
    query: publishersQuerySchema,
    answer: z.array(publishedPastExamSchema),
  }),
  webReport: defineCall({ method: 'GET', path: 'web-report', query: webReportQuerySchema, answer: sharedReportSchema }),
} as const;
