import { reportViewSchema, reportViewUpdateSchema } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../platform/route.js';
import type { ReportViewService } from './report-view.service.js';

export function reportViewRoutes(app: FastifyInstance, reportView: ReportViewService): void {
  defineRoute(app, {
    method: 'GET',
    url: 'report-view',
    summary: "The caller's report-view settings (image column, approve mode, past-exam sort, viewer size)",
    auth: 'account',
    response: reportViewSchema,
    handler: ({ account }) => reportView.get(account),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'report-view',
    summary: "Change some of the caller's report-view settings; answers all of them",
    auth: 'account',
    body: reportViewUpdateSchema,
    response: reportViewSchema,
    handler: ({ account, body }) => reportView.update(account, body),
  });
}
