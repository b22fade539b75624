import { statisticsCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { defineCallRoute } from '../../platform/call-route.js';
import { statCaller } from './statistics-caller.js';
import type { TurnaroundStatistics } from './statistics-turnaround.service.js';

/**
 * statistics/turnaround and statistics/turnaround/slowest (issue 26): the organizations counted
 * are settled by the service (statistics_report in each), as for every statistic.
 */
export function turnaroundRoutes(app: FastifyInstance, turnaround: TurnaroundStatistics): void {
  defineCallRoute(app, calls.turnaround, {
    summary: 'Statistics: turnaround between two steps of the exams (median, 90th percentile, past the target)',
    auth: 'account',
    handler: (input) => turnaround.table(statCaller(input), input.query),
  });
  defineCallRoute(app, calls.turnaroundSlowest, {
    summary: 'Statistics: the slowest exams between two steps, and those now past the target',
    auth: 'account',
    handler: (input) => turnaround.slowest(statCaller(input), input.query),
  });
}
