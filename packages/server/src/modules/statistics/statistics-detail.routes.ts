import { STAT_OVERVIEW_KINDS, statisticsCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { defineCallRoute } from '../../platform/call-route.js';
import { statCaller } from './statistics-caller.js';
import type { RawInput } from '../../platform/route.js';
import { sendXlsx } from '../../platform/xlsx.js';
import type { DetailStatistics } from './statistics-detail.service.js';

const group = ({ params }: RawInput) => params.groupId;

/**
 * report-detail (+ export), overview, buckets/allowed-statistics, buckets/allowed, groups/{id}/quality.
 * The organizations counted are settled by the service (statistics.scope.ts: each needs the
 * statistic's action, another group's answers 404); groups/{id}/quality names its group here.
 */
export function detailRoutes(app: FastifyInstance, detail: DetailStatistics): void {
  defineCallRoute(app, calls.reportDetail, {
    summary: 'Statistics: the approved reports of a period (a doctor as writer or approver), newest first',
    auth: 'account',
    handler: (input) => detail.reportDetail(statCaller(input), input.query),
  });
  defineCallRoute(app, calls.reportDetailPost, {
    summary: 'Statistics: the approved reports of a period (the query as a body)',
    auth: 'account',
    handler: (input) => detail.reportDetail(statCaller(input), input.body),
  });
  defineCallRoute(app, calls.reportDetailExport, {
    summary: 'Statistics: the approved reports of a period as .xlsx (at most STAT_EXPORT_MAX)',
    auth: 'account',
    handler: async (input) => sendXlsx(input.reply, await detail.exportReportDetail(statCaller(input), input.query)),
  });
  for (const kind of STAT_OVERVIEW_KINDS) {
    defineCallRoute(app, calls.overview[kind].get, {
      summary: `Statistics: the overview (${kind}) of a period`,
      auth: 'account',
      handler: (input) => detail.overview(statCaller(input), kind, input.query),
    });
    defineCallRoute(app, calls.overview[kind].post, {
      summary: `Statistics: the overview (${kind}) of a period (the query as a body)`,
      auth: 'account',
      handler: (input) => detail.overview(statCaller(input), kind, input.body),
    });
  }
  defineCallRoute(app, calls.allowedStatistics, {
    summary: 'The organizations where the caller holds statistics actions, and its groups',
    auth: 'account',
    handler: (input) => detail.allowedStatistics(statCaller(input)),
  });
  defineCallRoute(app, calls.allowedBuckets, {
    summary: 'The organizations where the caller holds an action',
    auth: 'account',
    handler: (input) => detail.allowedBuckets(statCaller(input), input.query.action),
  });
  defineCallRoute(app, calls.groupQuality, {
    summary: "The group's quality summary over a period (quality_stats)",
    auth: { power: 'group_read', group },
    handler: (input) => detail.groupQuality(statCaller(input), input.params.groupId, input.query),
  });
}
