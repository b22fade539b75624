import { statisticsCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { TurnaroundStatistics } from './statistics-turnaround.service.js';

/**
 * statistics/turnaround and statistics/turnaround/slowest (issue 26): the organizations counted
 * are settled by the service (statistics_report in each), as for every statistic.
 */
export function turnaroundRoutes(app: FastifyInstance, turnaround: TurnaroundStatistics): void {
  defineCallRoute(app, calls.turnaround, {
    summary: 'Statistics: turnaround between two steps of the exams (median, 90th percentile, past the target)',
    auth: 'account',
    handler: ({ account, request, query }) => turnaround.table({ account, ctx: auditContext(request) }, query),
  });
  defineCallRoute(app, calls.turnaroundSlowest, {
    summary: 'Statistics: the slowest exams between two steps, and those now past the target',
    auth: 'account',
    handler: ({ account, request, query }) => turnaround.slowest({ account, ctx: auditContext(request) }, query),
  });
}
