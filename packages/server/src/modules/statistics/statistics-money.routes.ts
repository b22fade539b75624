import { statisticsCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { defineCallRoute } from '../../platform/call-route.js';
import { statCaller } from './statistics-caller.js';
import { sendXlsx } from '../../platform/xlsx.js';
import type { MoneyStatistics } from './statistics-money.service.js';

/**
 * statistics/billings (GET, POST) and billings/export-excel: the organizations counted are settled
 * by the service (charge_details_stats in each), as for every statistic.
 */
export function moneyRoutes(app: FastifyInstance, money: MoneyStatistics): void {
  defineCallRoute(app, calls.billings, {
    summary: 'Statistics: the money lines of a period (payments, refunds, SLA credits) with sums per currency',
    auth: 'account',
    handler: (input) => money.billings(statCaller(input), input.query),
  });
  defineCallRoute(app, calls.billingsPost, {
    summary: 'Statistics: the money lines of a period (the query as a body)',
    auth: 'account',
    handler: (input) => money.billings(statCaller(input), input.body),
  });
  defineCallRoute(app, calls.billingsExport, {
    summary: 'Statistics: the money lines of a period as .xlsx (at most 1,000 lines)',
    auth: 'account',
    handler: async (input) => sendXlsx(input.reply, await money.exportBillings(statCaller(input), input.query)),
  });
}
