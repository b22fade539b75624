import { statisticsCalls as calls, TABLE_STAT_KINDS } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { defineCallRoute } from '../../platform/call-route.js';
import { statCaller } from './statistics-caller.js';
import { sendXlsx } from '../../platform/xlsx.js';
import { detailRoutes } from './statistics-detail.routes.js';
import { moneyRoutes } from './statistics-money.routes.js';
import { turnaroundRoutes } from './statistics-turnaround.routes.js';
import type { StatisticsService } from './statistics.service.js';

/**
 * Statistics (issue 26; spec 001 §7 "Statistics"). Every route is the caller's: the organizations
 * counted are settled by the service, each needing the statistic's action (statistics.scope.ts), so
 * another group's organization answers 404 and a missing action 403 before anything is counted.
 */
export function statisticsRoutes(app: FastifyInstance, stats: StatisticsService): void {
  for (const kind of TABLE_STAT_KINDS) {
    const c = calls.tables[kind];
    defineCallRoute(app, c.get, {
      summary: `Statistics: ${kind} in a period, by dimension and period`,
      auth: 'account',
      handler: (input) => stats.table(statCaller(input), kind, input.query),
    });
    defineCallRoute(app, c.post, {
      summary: `Statistics: ${kind} in a period (the query as a body)`,
      auth: 'account',
      handler: (input) => stats.table(statCaller(input), kind, input.body),
    });
    defineCallRoute(app, c.exportExcel, {
      summary: `Statistics: ${kind} as .xlsx (rows and totals, in the caller's language)`,
      auth: 'account',
      handler: async (input) => sendXlsx(input.reply, await stats.exportTable(statCaller(input), kind, input.query)),
    });
  }
  detailRoutes(app, stats.detail);
  moneyRoutes(app, stats.money);
  turnaroundRoutes(app, stats.turnaround);
}
