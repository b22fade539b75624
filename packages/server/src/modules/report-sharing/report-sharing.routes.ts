import { reportSharingCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import { actorOf as actor, ownerOfReport } from '../reports/index.js';
import type { ReportPublishService } from './report-publish.service.js';
import type { ReportSharingService } from './report-sharing.service.js';
import type { WebIntegrationService } from './web-integration.service.js';

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
  const groupAdmin = { power: 'group_manage', group: ({ params }: RawInput) => params.groupId } as const;

  defineCallRoute(app, calls.share, {
    summary: 'A share link to the approved report (answered once): /reports/s?link=…, expiring in 1–90 days',
    auth: print,
    handler: (input) => sharing.create(actor(input), input.params.reportId, input.body),
  });
  defineCallRoute(app, calls.shares, {
    summary: "The report's share and publish links (never their ids), newest first",
    auth: print,
    handler: (input) => sharing.list(actor(input), input.params.reportId),
  });
  defineCallRoute(app, calls.revokeShare, {
    summary: 'Revoke a share or publish link of the report: it stops working at once',
    auth: print,
    handler: (input) => sharing.revoke(actor(input), input.params.reportId, input.params.shareId),
  });

  // Spec 001 §8: the body carries its own token (a bearer header is taken too); public before the body is read.
  definePublicCallRoute(app, calls.publish, {
    summary:
      'Publish approved reports (order_report_publish in each exam’s organization; the body carries the token): a link per report or why not',
    handler: async ({ body, request }) => {
      const { token, ...rest } = body;
      const account = token ? await request.accountOfToken(token) : request.account;
      if (!account) throw errors.unauthenticated();
      return publishing.publish(account, rest, auditContext(request));
    },
  });
  defineCallRoute(app, calls.publishPage, {
    summary: 'Published reports of the organizations where the caller may publish (or of bucketId), newest first',
    auth: 'account',
    handler: ({ account, body, request }) => publishing.page(account, body, auditContext(request)),
  });
  defineCallRoute(app, calls.publishDetail, {
    summary: 'A published report as its publish link shows it now, and its links (order_report_publish)',
    auth: 'account',
    handler: ({ account, query, request }) =>
      publishing.detail(account, query.examId, query.reportId, auditContext(request)),
  });

  defineCallRoute(app, calls.webSecretStatus, {
    summary: 'Whether the group has a /web integration secret (never the secret itself)',
    auth: groupAdmin,
    handler: ({ groupId }) => web.status(groupId),
  });
  defineCallRoute(app, calls.rotateWebSecret, {
    summary: 'Create or rotate the group’s /web integration secret; answered this once',
    auth: groupAdmin,
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
    definePublicCallRoute(scope, calls.sharedReport, {
      summary: 'The report a share or publish link opens (public; the link is the credential)',
      handler: ({ query, request }) => sharing.view(query.link, query.examId, request.account, auditContext(request)),
    });
    definePublicCallRoute(scope, calls.coExams, {
      summary: 'The other exams written in a linked report (public; [] on any failure)',
      handler: ({ query, request }) =>
        sharing.coExams(query.examId, query.shareLinkId, auditContext(request)).catch(() => []),
    });
    definePublicCallRoute(scope, calls.pastExams, {
      summary: "The patient's other published reports, for a publish link (public; [] on any failure)",
      handler: ({ query, request }) =>
        sharing.pastExams(query.examId, query.shareLinkId, auditContext(request)).catch(() => []),
    });
    definePublicCallRoute(scope, calls.webReport, {
      summary: 'The approved report a hospital system’s signed /web link names (HMAC-SHA256, see README)',
      handler: ({ query, request }) => web.open(query, auditContext(request)),
    });
  });
}
