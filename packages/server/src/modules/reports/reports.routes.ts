import { KEY_IMAGE_MAX_BYTES, KEY_IMAGE_TYPES, reportCalls, type ReportAction } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { actorOf as actor } from './report-actor.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { defineCallRoute } from '../../platform/call-route.js';
import { ownerFrom } from '../../platform/route.js';
import type { ViewingService } from '../viewing/index.js';
import type { ReportExtrasService } from './report-extras.service.js';
import { ownerOfReport } from './reports.owners.js';
import type { ReportsService } from './reports.service.js';

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

  defineCallRoute(app, reportCalls.detail, {
    summary: "The report of an exam with the caller's transitions (status none before anyone wrote it)",
    auth: read,
    handler: (input) => reports.detail(actor(input), input.params.reportId),
  });
  defineCallRoute(app, reportCalls.content, {
    summary: 'The report content and the version it is at',
    auth: read,
    handler: (input) => reports.content(actor(input), input.params.reportId),
  });
  // The report actions (spec 000 §4), one route each, named by its contract entry: the path is
  // written out in contracts reportCalls (reports/:reportId/approve …), whose test checks it against
  // REPORT_ACTION_PATHS; platform/tenant-isolation.int.test.ts checks that every action has exactly
  // one route.
  const actionRoute = (action: ReportAction, call: (typeof reportCalls)[ReportAction]) => {
    if (call !== reportCalls[action]) throw new Error(`Report action ${action}: not its contract entry`);
    defineCallRoute(app, call, {
      summary: `Report action ${action} (spec 000 §4); refused unless it is in the caller's transitions`,
      auth: read,
      handler: (input) => reports.act(actor(input), input.params.reportId, action, input.body),
    });
  };
  actionRoute('save', reportCalls.save);
  actionRoute('submit', reportCalls.submit);
  actionRoute('approve', reportCalls.approve);
  actionRoute('reject', reportCalls.reject);
  actionRoute('advise', reportCalls.advise);
  actionRoute('recall', reportCalls.recall);
  actionRoute('cancelSubmit', reportCalls.cancelSubmit);
  actionRoute('preliminaryIssue', reportCalls.preliminaryIssue);
  actionRoute('approveAndPrint', reportCalls.approveAndPrint);
  defineCallRoute(app, reportCalls.lock, {
    summary: 'Open the report for editing: take or renew its lock ("Report locked by {name}" when another holds it)',
    auth: read,
    handler: (input) => reports.lock(actor(input), input.params.reportId),
  });
  defineCallRoute(app, reportCalls.unlock, {
    summary: "Release the caller's lock",
    auth: read,
    handler: (input) => reports.unlock(actor(input), input.params.reportId),
  });
  defineCallRoute(app, reportCalls.forceUnlock, {
    summary: "Clear anyone's lock (organization and group admins)",
    auth: { action: 'bucket_manage', owner },
    handler: (input) => reports.forceUnlock(actor(input), input.params.reportId),
  });
  defineCallRoute(app, reportCalls.reset, {
    summary: 'Clear a never-submitted draft (its writer); the trace keeps what it was',
    auth: read,
    handler: (input) => reports.reset(actor(input), input.params.reportId),
  });
  defineCallRoute(app, reportCalls.sync, {
    summary: "The editor's heartbeat: renews the caller's lock, answers the state, version, lock and last save time",
    auth: read,
    handler: (input) => reports.sync(actor(input), input.params.reportId),
  });
  defineCallRoute(app, reportCalls.traces, {
    summary: "The report's history trail, oldest first",
    auth: { action: 'report_trace', owner },
    handler: (input) => extras.traces(actor(input), input.params.reportId),
  });
  defineCallRoute(app, reportCalls.traceDetail, {
    summary: 'One step of the trail with its content',
    auth: { action: 'report_trace', owner },
    handler: (input) => extras.traceDetail(actor(input), input.params.reportId, input.params.traceId),
  });
  defineCallRoute(app, reportCalls.diffTrace, {
    summary: 'Word-level diff (Chinese by character) between two steps of the trail',
    auth: { action: 'report_trace', owner },
    handler: (input) => extras.diff(actor(input), input.params.reportId, input.query.from, input.query.to),
  });
  defineCallRoute(app, reportCalls.worklist, {
    summary: 'The next exams to read or approve, urgent and assigned first',
    auth: read,
    handler: (input) => extras.worklist(actor(input), input.params.reportId),
  });
  defineCallRoute(app, reportCalls.adviceExperts, {
    summary: 'Members of the organization who may give advice (report_advice)',
    auth: read,
    handler: (input) => reports.adviceExperts(actor(input)),
  });

  defineCallRoute(app, reportCalls.sampleGraphs, {
    summary: "The organization's sample graphs placed on the report, with their marked points",
    auth: read,
    handler: (input) => extras.sampleGraphs(actor(input), input.params.reportId),
  });
  defineCallRoute(app, reportCalls.placeSampleGraph, {
    summary: 'Place a sample graph on the report with marked points (the caller must be able to edit it)',
    auth: read,
    handler: (input) => extras.placeSampleGraph(actor(input), input.params.reportId, input.body),
  });
  defineCallRoute(app, reportCalls.patchSampleGraph, {
    summary: "A placed sample graph's points and whether it prints",
    auth: read,
    handler: (input) =>
      extras.patchSampleGraph(actor(input), input.params.reportId, input.params.placementId, input.body),
  });
  defineCallRoute(app, reportCalls.removeSampleGraph, {
    summary: 'Remove a placed sample graph from the report',
    auth: read,
    handler: (input) => extras.removeSampleGraph(actor(input), input.params.reportId, input.params.placementId),
  });

  /* Key images from the editor: the caller must be able to edit the report now. */
  defineCallRoute(app, reportCalls.patchImage, {
    summary: "A key image's description and whether it is printed",
    auth: read,
    handler: async (input) => {
      const reportId = await reports.assertEditing(actor(input), input.params.reportId);
      return viewing.keyImages.patchImage(reportId, input.params.imageId, input.body);
    },
  });
  defineCallRoute(app, reportCalls.orderImages, {
    summary: 'Put the key images in a new order',
    auth: read,
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
    defineCallRoute(scope, reportCalls.addImage, {
      summary: 'A key image from a local file or the clipboard (PNG or JPEG, ≤ 5 MB, at most 6 per report)',
      auth: read,
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
