import { reportLibraryCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { defineCallRoute } from '../../platform/call-route.js';
import type { ReportViewService } from './report-view.service.js';

export function reportViewRoutes(app: FastifyInstance, reportView: ReportViewService): void {
  defineCallRoute(app, reportLibraryCalls.reportView, {
    summary: "The caller's report-view settings (image column, approve mode, past-exam sort, viewer size)",
    auth: 'account',
    handler: ({ account }) => reportView.get(account),
  });
  defineCallRoute(app, reportLibraryCalls.updateReportView, {
    summary: "Change some of the caller's report-view settings; answers all of them",
    auth: 'account',
    handler: ({ account, body }) => reportView.update(account, body),
  });
}
