import {
  diffTraceQuerySchema,
  diffTraceSchema,
  KEY_IMAGE_MAX_BYTES,
  KEY_IMAGE_TYPES,
  keyImageQuerySchema,
  patchSampleGraphSchema,
  placeSampleGraphSchema,
  REPORT_ACTION_PATHS,
  reportActionResultSchema,
  reportActionSchema,
  reportContentSchema,
  reportImageOrderSchema,
  reportImagePatchSchema,
  reportImageSchema,
  reportImagesSchema,
  reportSampleGraphsSchema,
  reportSchema,
  reportSyncSchema,
  reportTraceDetailSchema,
  reportTraceSchema,
  type ReportAction,
  worklistSchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { defineRoute, ownerFrom, type AuthedInput } from '../../platform/route.js';
import type { ViewingService } from '../viewing/index.js';
import type { ReportExtrasService } from './report-extras.service.js';
import { ownerOfReport } from './reports.owners.js';
import type { Actor, ReportsService } from './reports.service.js';

const params = z.object({ reportId: z.string().max(64) });
const traceParams = z.object({ reportId: z.string().max(64), traceId: z.string().max(64) });
const imageParams = z.object({ reportId: z.string().max(64), imageId: z.string().max(64) });

type Caller = Pick<AuthedInput<undefined, undefined, undefined>, 'account' | 'access' | 'bucket' | 'request'>;
const actor = (input: Caller): Actor => ({
  account: input.account,
  access: input.access,
  bucket: input.bucket,
  ctx: auditContext(input.request),
});

/**
 * The report's calls (spec 001 §7 "Reports"). The {id} is the exam's id (a report's id is its
 * primary exam's). Routes authorize seeing the organization; the service then decides from the
 * report's state and the caller's role actions (the pure machine), so every refusal names why.
 */
export function reportsRoutes(
  app: FastifyInstance,
  db: Db,
  reports: ReportsService,
  extras: ReportExtrasService,
  viewing: ViewingService,
): void {
  const owner = ownerFrom('reportId', ownerOfReport, db);
  const read = { action: 'bucket_read', owner } as const;

  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/detail',
    summary: "The report of an exam with the caller's transitions (status none before anyone wrote it)",
    auth: read,
    params,
    response: reportSchema,
    handler: (input) => reports.detail(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/content',
    summary: 'The report content and the version it is at',
    auth: read,
    params,
    response: z.object({ version: z.number().int(), content: reportContentSchema }),
    handler: (input) => reports.content(actor(input), input.params.reportId),
  });
  // The report actions (spec 000 §4), one route each with its path written out. The path must be the
  // contract's (REPORT_ACTION_PATHS), checked here at start-up; platform/tenant-isolation.int.test.ts
  // checks that every action has exactly one route.
  const actionRoute = (action: ReportAction, url: string) => {
    if (url !== `reports/:reportId/${REPORT_ACTION_PATHS[action]}`) {
      throw new Error(`Report action ${action}: ${url} is not its path in the contract`);
    }
    defineRoute(app, {
      method: 'POST',
      url,
      summary: `Report action ${action} (spec 000 §4); refused unless it is in the caller's transitions`,
      auth: read,
      params,
      body: reportActionSchema,
      response: reportActionResultSchema,
      handler: (input) => reports.act(actor(input), input.params.reportId, action, input.body),
    });
  };
  actionRoute('save', 'reports/:reportId/save');
  actionRoute('submit', 'reports/:reportId/submit');
  actionRoute('approve', 'reports/:reportId/approve');
  actionRoute('reject', 'reports/:reportId/reject');
  actionRoute('advise', 'reports/:reportId/advise');
  actionRoute('recall', 'reports/:reportId/recall');
  actionRoute('cancelSubmit', 'reports/:reportId/cancelSubmit');
  actionRoute('preliminaryIssue', 'reports/:reportId/preliminaryIssue');
  actionRoute('approveAndPrint', 'reports/:reportId/approve-and-print');
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/lock',
    summary: 'Open the report for editing: take or renew its lock ("Report locked by {name}" when another holds it)',
    auth: read,
    params,
    response: reportSchema,
    handler: (input) => reports.lock(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/unlock',
    summary: "Release the caller's lock",
    auth: read,
    params,
    response: reportSchema,
    handler: (input) => reports.unlock(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/force-unlock',
    summary: "Clear anyone's lock (organization and group admins)",
    auth: { action: 'bucket_manage', owner },
    params,
    response: reportSchema,
    handler: (input) => reports.forceUnlock(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/reset',
    summary: 'Clear a never-submitted draft (its writer); the trace keeps what it was',
    auth: read,
    params,
    response: reportSchema,
    handler: (input) => reports.reset(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/sync',
    summary: "The editor's heartbeat: renews the caller's lock, answers the state, version, lock and last save time",
    auth: read,
    params,
    response: reportSyncSchema,
    handler: (input) => reports.sync(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/report-trace',
    summary: "The report's history trail, oldest first",
    auth: { action: 'report_trace', owner },
    params,
    response: reportTraceSchema,
    handler: (input) => extras.traces(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/traces/:traceId',
    summary: 'One step of the trail with its content',
    auth: { action: 'report_trace', owner },
    params: traceParams,
    response: reportTraceDetailSchema,
    handler: (input) => extras.traceDetail(actor(input), input.params.reportId, input.params.traceId),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/diff-trace',
    summary: 'Word-level diff (Chinese by character) between two steps of the trail',
    auth: { action: 'report_trace', owner },
    params,
    query: diffTraceQuerySchema,
    response: diffTraceSchema,
    handler: (input) => extras.diff(actor(input), input.params.reportId, input.query.from, input.query.to),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/worklist',
    summary: 'The next exams to read or approve, urgent and assigned first',
    auth: read,
    params,
    response: worklistSchema,
    handler: (input) => extras.worklist(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/advice-experts',
    summary: 'Members of the organization who may give advice (report_advice)',
    auth: read,
    params,
    response: z.array(z.object({ id: z.string(), name: z.string() })),
    handler: (input) => reports.adviceExperts(actor(input)),
  });

  const placementParams = z.object({ reportId: z.string().max(64), placementId: z.string().max(64) });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/sample-graphs',
    summary: "The organization's sample graphs placed on the report, with their marked points",
    auth: read,
    params,
    response: reportSampleGraphsSchema,
    handler: (input) => extras.sampleGraphs(actor(input), input.params.reportId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/sample-graphs',
    summary: 'Place a sample graph on the report with marked points (the caller must be able to edit it)',
    auth: read,
    params,
    body: placeSampleGraphSchema,
    response: reportSampleGraphsSchema,
    handler: (input) => extras.placeSampleGraph(actor(input), input.params.reportId, input.body),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: 'reports/:reportId/sample-graphs/:placementId',
    summary: "A placed sample graph's points and whether it prints",
    auth: read,
    params: placementParams,
    body: patchSampleGraphSchema,
    response: reportSampleGraphsSchema,
    handler: (input) =>
      extras.patchSampleGraph(actor(input), input.params.reportId, input.params.placementId, input.body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'reports/:reportId/sample-graphs/:placementId',
    summary: 'Remove a placed sample graph from the report',
    auth: read,
    params: placementParams,
    response: reportSampleGraphsSchema,
    handler: (input) => extras.removeSampleGraph(actor(input), input.params.reportId, input.params.placementId),
  });

  /* Key images from the editor: the caller must be able to edit the report now. */
  defineRoute(app, {
    method: 'PATCH',
    url: 'reports/:reportId/images/:imageId',
    summary: "A key image's description and whether it is printed",
    auth: read,
    params: imageParams,
    body: reportImagePatchSchema,
    response: reportImageSchema,
    handler: async (input) => {
      const reportId = await reports.assertEditing(actor(input), input.params.reportId);
      return viewing.keyImages.patchImage(reportId, input.params.imageId, input.body);
    },
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/image-order',
    summary: 'Put the key images in a new order',
    auth: read,
    params,
    body: reportImageOrderSchema,
    response: reportImagesSchema,
    handler: async (input) => {
      const reportId = await reports.assertEditing(actor(input), input.params.reportId);
      return viewing.keyImages.orderImages(reportId, input.body.imageIds);
    },
  });
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      [...KEY_IMAGE_TYPES],
      { parseAs: 'buffer', bodyLimit: KEY_IMAGE_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );
    defineRoute(scope, {
      method: 'POST',
      url: 'reports/:reportId/images',
      summary: 'A key image from a local file or the clipboard (PNG or JPEG, ≤ 5 MB, at most 6 per report)',
      auth: read,
      params,
      query: keyImageQuerySchema,
      response: reportImageSchema,
      status: 201,
      handler: async (input) => {
        const body = input.request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) {
          throw new AppError('UnsupportedMediaType', 'Send the image as image/png or image/jpeg');
        }
        const a = actor(input);
        const exam = await reports.imageTarget(a, input.params.reportId);
        return viewing.keyImages.storeImage(exam, input.account, body, input.query.desc ?? '', a.ctx);
      },
    });
  });
}
