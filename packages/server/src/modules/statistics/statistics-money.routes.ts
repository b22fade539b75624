import { statisticsCalls as calls } from '@yyp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import { sendXlsx } from '../../platform/xlsx.js';
import type { MoneyStatistics } from './statistics-money.service.js';

const caller = ({ account, request }: { account: AccountRow; request: FastifyRequest }) => ({
  account,
  ctx: auditContext(request),
});

/**
 * statistics/billings (GET, POST) and billings/export-excel: the organizations counted are settled
 * by the service (charge_details_stats in each), as for every statistic.
 */
export function moneyRoutes(app: FastifyInstance, money: MoneyStatistics): void {
  defineCallRoute(app, calls.billings, {
    summary: 'Statistics: the money lines of a period (payments, refunds, SLA credits) with sums per currency',
    auth: 'account',
    handler: (input) => money.billings(caller(input), input.query),
  });
  defineCallRoute(app, calls.billingsPost, {
    summary: 'Statistics: the money lines of a period (the query as a body)',
    auth: 'account',
    handler: (input) => money.billings(caller(input), input.body),
  });
  defineCallRoute(app, calls.billingsExport, {
    summary: 'Statistics: the money lines of a period as .xlsx (at most 1,000 lines)',
    auth: 'account',
    handler: async (input) => sendXlsx(input.reply, await money.exportBillings(caller(input), input.query)),
  });
}
