import {
  criticalValueListSchema,
  criticalValuePageBodySchema,
  criticalValuePageSchema,
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
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { defineRoute, ownerFrom, type AuthedInput, type RawInput } from '../../platform/route.js';
import { ownerOfReport } from '../reports/index.js';
import type { Actor } from './report-safety.access.js';
import type { ReportSafetyService } from './report-safety.service.js';
import { groupOfTableColor } from './report-safety.owners.js';

const params = z.object({ reportId: z.string().max(64) });
const criticalParams = params.extend({ criticalId: z.string().max(64) });
const commentParams = params.extend({ commentId: z.string().max(64) });
const colorParams = z.object({ colorId: z.string().max(64) });

type Caller = Pick<AuthedInput<undefined, undefined, undefined>, 'account' | 'access' | 'bucket' | 'request'>;
const actor = (input: Caller): Actor => ({
  account: input.account,
  access: input.access,
  bucket: input.bucket,
  ctx: auditContext(input.request),
});
const fromQuery =
  (key: string) =>
  ({ query }: RawInput) =>
    typeof query[key] === 'string' ? query[key] : undefined;

/**
 * Clinical safety around a report (spec 001 §7 "Reports": critical-value, quality, rating,
 * comment; report-table-color; statistics critical-value). Routes on a report authorize seeing
 * its organization, or name the one action a call needs; the service asks for the rest
 * (report-safety.access.ts), so another group's ids answer 404 before anything is read.
 */
export function reportSafetyRoutes(app: FastifyInstance, db: Db, safety: ReportSafetyService): void {
  const owner = ownerFrom('reportId', ownerOfReport, db);
  const read = { action: 'bucket_read', owner } as const;
  const { critical, review, colors } = safety;

  /* ---------- critical values ---------- */
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/critical-value',
    summary:
      'Report a critical value (report_upsert or report_approval): flags the exam and notifies, in one transaction',
    auth: read,
    params,
    body: reportCriticalValueSchema,
    response: criticalValueSchema,
    status: 201,
    handler: (input) => critical.report(actor(input), input.params.reportId, input.body),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/critical-values',
    summary: "The report's critical values, newest first, with who reported and handled them",
    auth: read,
    params,
    response: criticalValueListSchema,
    handler: (input) => critical.list(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/critical-values/:criticalId/receive',
    summary: "The ordering side's acknowledgement with read-back (sent → received)",
    auth: read,
    params: criticalParams,
    body: receiveCriticalValueSchema,
    response: criticalValueSchema,
    handler: (input) => critical.receive(actor(input), input.params.reportId, input.params.criticalId, input.body),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/critical-values/:criticalId/handle',
    summary: 'Close a received critical value (received → handled); the flag drops when none is open',
    auth: read,
    params: criticalParams,
    body: handleCriticalValueSchema,
    response: criticalValueSchema,
    handler: (input) => critical.handle(actor(input), input.params.reportId, input.params.criticalId, input.body),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'critical-values/page-query',
    summary: "A page of critical values across the caller's organizations (report readers and followers), newest first",
    auth: 'account',
    body: criticalValuePageBodySchema,
    response: criticalValuePageSchema,
    handler: (input) => critical.page(input.account, input.body, auditContext(input.request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'statistics/critical-value',
    summary:
      'Critical values of an organization in a period: counts by status, median minutes to read-back and handling',
    auth: { action: 'critical_value_stats', owner: fromQuery('bucketId') },
    query: criticalValueStatsQuerySchema,
    response: criticalValueStatsSchema,
    handler: (input) => critical.stats(input.bucket.id, input.query),
  });

  /* ---------- quality control ---------- */
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/quality',
    summary: "The report's quality grade (null until graded) and what the caller may do with it",
    auth: read,
    params,
    response: reportQualityAnswerSchema,
    handler: (input) => review.quality(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/quality',
    summary: 'Grade an approved or printed report: level, suggestion, unsatisfactory items',
    auth: { action: 'quality_upsert', owner },
    params,
    body: qualityUpsertSchema,
    response: reportQualitySchema,
    handler: (input) => review.upsertQuality(actor(input), input.params.reportId, input.body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'reports/:reportId/quality',
    summary: "Remove the report's quality grade",
    auth: { action: 'quality_delete', owner },
    params,
    status: 204,
    handler: (input) => review.deleteQuality(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'quality/page-query',
    summary:
      'A page of graded reports, newest grading first, of the organization named or of every one where the caller reviews quality',
    auth: 'account',
    query: qualityPageQuerySchema,
    body: qualityPageBodySchema,
    response: qualityPageSchema,
    handler: (input) =>
      review.qualityPage(input.account, input.query.bucketId, input.body, auditContext(input.request)),
  });

  /* ---------- ratings ---------- */
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/rating',
    summary: 'Rate an approved or printed report 1–5, once: a second rating answers 409 and changes nothing',
    auth: read,
    params,
    body: reportRatingBodySchema,
    response: reportRatingSchema,
    status: 201,
    handler: (input) => review.rate(actor(input), input.params.reportId, input.body),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/ratings',
    summary: "The report's ratings with the mean score",
    auth: read,
    params,
    response: reportRatingsSchema,
    handler: (input) => review.ratings(actor(input), input.params.reportId),
  });

  /* ---------- comments ---------- */
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/comments',
    summary: "The report's comments, oldest first (where the group allows report comments)",
    auth: read,
    params,
    response: reportCommentsSchema,
    handler: (input) => review.comments(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/comment',
    summary: 'Comment on the report (where the group allows report comments)',
    auth: read,
    params,
    body: reportCommentBodySchema,
    response: reportCommentSchema,
    status: 201,
    handler: (input) => review.comment(actor(input), input.params.reportId, input.body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'reports/:reportId/comments/:commentId',
    summary: 'Delete a comment (its author)',
    auth: read,
    params: commentParams,
    status: 204,
    handler: (input) => review.deleteComment(actor(input), input.params.reportId, input.params.commentId),
  });

  /* ---------- report table colours ---------- */
  const colorGroup = ownerFrom('colorId', groupOfTableColor, db);
  defineRoute(app, {
    method: 'GET',
    url: 'report-table-color',
    summary: "The group's report table colours, lower priority first",
    auth: { power: 'group_read', group: fromQuery('groupId') },
    query: reportTableColorQuerySchema,
    response: reportTableColorsSchema,
    handler: (input) => colors.list(input.groupId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'report-table-color',
    summary: 'Add a report table colour to the group named by ?groupId (group admins)',
    auth: { power: 'group_manage', group: fromQuery('groupId') },
    query: reportTableColorQuerySchema,
    body: reportTableColorBodySchema,
    response: reportTableColorSchema,
    status: 201,
    handler: (input) => colors.add(input.account, input.groupId, input.body, auditContext(input.request)),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'report-table-color/:colorId',
    summary: 'Change a report table colour (group admins)',
    auth: { power: 'group_manage', group: colorGroup },
    params: colorParams,
    body: reportTableColorBodySchema,
    response: reportTableColorSchema,
    handler: (input) =>
      colors.update(input.account, input.groupId, input.params.colorId, input.body, auditContext(input.request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'report-table-color/:colorId',
    summary: 'Remove a report table colour (group admins)',
    auth: { power: 'group_manage', group: colorGroup },
    params: colorParams,
    status: 204,
    handler: (input) => colors.remove(input.account, input.groupId, input.params.colorId, auditContext(input.request)),
  });
}
