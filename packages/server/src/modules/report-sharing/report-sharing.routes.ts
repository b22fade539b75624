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
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { definePublicRoute, defineRoute, ownerFrom, type AuthedInput } from '../../platform/route.js';
import { ownerOfReport, type Actor } from '../reports/index.js';
import type { ReportPublishService } from './report-publish.service.js';
import type { ReportSharingService } from './report-sharing.service.js';
import type { WebIntegrationService } from './web-integration.service.js';

const params = z.object({ reportId: z.string().max(64) });
const shareParams = z.object({ reportId: z.string().max(64), shareId: z.string().max(64) });
const groupParams = z.object({ groupId: z.string().max(64) });

type Caller = Pick<AuthedInput<undefined, undefined, undefined>, 'account' | 'access' | 'bucket' | 'request'>;
const actor = (input: Caller): Actor => ({
  account: input.account,
  access: input.access,
  bucket: input.bucket,
  ctx: auditContext(input.request),
});

/**
 * Sharing and publishing (spec 001 §7 share/report, publishers/*, orders/publish-reports; spec 000
 * §2 /reports/s, /web, /report-publish). Making and revoking links needs report_print (sharing hands
 * the approved report out, as printing does) and exam_get; publishing needs order_report_publish;
 * the integration secret is the group admin's. Pages opened by a link are public: the link (or the
 * signature) is the credential, checked first by the service.
 */
export function reportSharingRoutes(
  app: FastifyInstance,
  db: Db,
  sharing: ReportSharingService,
  publishing: ReportPublishService,
  web: WebIntegrationService,
): void {
  const print = { action: 'report_print', owner: ownerFrom('reportId', ownerOfReport, db) } as const;

  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/share',
    summary: 'A share link to the approved report (answered once): /reports/s?link=…, expiring in 1–90 days',
    auth: print,
    params,
    body: shareReportRequestSchema,
    response: shareLinkCreatedSchema,
    status: 201,
    handler: (input) => sharing.create(actor(input), input.params.reportId, input.body),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/shares',
    summary: "The report's share and publish links (never their ids), newest first",
    auth: print,
    params,
    response: shareLinksSchema,
    handler: (input) => sharing.list(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/shares/:shareId/revoke',
    summary: 'Revoke a share or publish link of the report: it stops working at once',
    auth: print,
    params: shareParams,
    response: shareLinkSchema,
    handler: (input) => sharing.revoke(actor(input), input.params.reportId, input.params.shareId),
  });

  defineRoute(app, {
    method: 'POST',
    url: 'orders/publish-reports',
    summary:
      'Publish approved reports (order_report_publish in each exam’s organization): a link per report or why not',
    auth: 'account',
    body: publishReportsRequestSchema,
    response: publishResultSchema,
    handler: ({ account, body, request }) => publishing.publish(account, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'report-publish/page-query',
    summary: 'Published reports of the organizations where the caller may publish (or of bucketId), newest first',
    auth: 'account',
    body: publishPageQuerySchema,
    response: publishPageSchema,
    handler: ({ account, body, request }) => publishing.page(account, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'report-publish/detail',
    summary: 'A published report as its publish link shows it now, and its links (order_report_publish)',
    auth: 'account',
    query: publishDetailQuerySchema,
    response: publishDetailSchema,
    handler: ({ account, query, request }) =>
      publishing.detail(account, query.examId, query.reportId, auditContext(request)),
  });

  defineRoute(app, {
    method: 'GET',
    url: 'groups/:groupId/integration/web-secret',
    summary: 'Whether the group has a /web integration secret (never the secret itself)',
    auth: { power: 'group_manage', group: ({ params: p }) => p.groupId },
    params: groupParams,
    response: webSecretStatusSchema,
    handler: ({ groupId }) => web.status(groupId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups/:groupId/integration/web-secret',
    summary: 'Create or rotate the group’s /web integration secret; answered this once',
    auth: { power: 'group_manage', group: ({ params: p }) => p.groupId },
    params: groupParams,
    response: webSecretSchema,
    handler: ({ account, groupId, request }) => web.rotate(account, groupId, auditContext(request)),
  });

  // What a link opens: never cached, never indexed, and the page's address (the link) never sent on.
  void app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      void reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex, nofollow');
    });
    definePublicRoute(scope, {
      method: 'GET',
      url: 'share/report',
      summary: 'The report a share or publish link opens (public; the link is the credential)',
      query: shareReportQuerySchema,
      response: sharedReportSchema,
      handler: ({ query, request }) => sharing.view(query.link, query.examId, request.account, auditContext(request)),
    });
    definePublicRoute(scope, {
      method: 'GET',
      url: 'publishers/find-co-exams',
      summary: 'The other exams written in a linked report (public; [] on any failure)',
      query: publishersQuerySchema,
      response: z.array(publishedCoExamSchema),
      handler: ({ query, request }) =>
        sharing.coExams(query.examId, query.shareLinkId, auditContext(request)).catch(() => []),
    });
    definePublicRoute(scope, {
      method: 'GET',
      url: 'publishers/find-past-exams',
      summary: "The patient's other published reports, for a publish link (public; [] on any failure)",
      query: publishersQuerySchema,
      response: z.array(publishedPastExamSchema),
      handler: ({ query, request }) =>
        sharing.pastExams(query.examId, query.shareLinkId, auditContext(request)).catch(() => []),
    });
    definePublicRoute(scope, {
      method: 'GET',
      url: 'web-report',
      summary: 'The approved report a hospital system’s signed /web link names (HMAC-SHA256, see README)',
      query: webReportQuerySchema,
      response: sharedReportSchema,
      handler: ({ query, request }) => web.open(query, auditContext(request)),
    });
  });
}
