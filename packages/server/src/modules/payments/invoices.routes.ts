import { earningsCalls, invoiceCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { EarningsService } from './earnings.service.js';
import type { InvoicesListService } from './invoices-list.service.js';
import { sendXlsx } from '../../platform/xlsx.js';

/**
 * The invoice list and the expert organization's earnings statement (issue 24; contracts
 * invoice-calls.ts, earnings-calls.ts). The route checks the named organization is visible
 * (bucket_read, 404 otherwise); the services check the side's actions before reading anything.
 */
export function invoiceListRoutes(
  app: FastifyInstance,
  s: { invoiceList: InvoicesListService; earnings: EarningsService },
): void {
  const ofQueryBucket = ({ query }: RawInput) => (typeof query.bucketId === 'string' ? query.bucketId : undefined);
  const auth = { action: 'bucket_read', owner: ofQueryBucket } as const;

  defineCallRoute(app, invoiceCalls.pageQuery, {
    summary: "An organization's invoices, as the applicant or as the issuer",
    auth,
    handler: ({ account, request, query, body }) =>
      s.invoiceList.page({ account, ctx: auditContext(request) }, query, body),
  });
  defineCallRoute(app, earningsCalls.pageQuery, {
    summary: "An expert organization's earnings per month (sums of its ledger account) and the orders behind them",
    auth,
    handler: ({ account, request, query, body }) =>
      s.earnings.page({ account, ctx: auditContext(request) }, query.bucketId, body),
  });
  defineCallRoute(app, earningsCalls.exportExcel, {
    summary: "An expert organization's earnings as .xlsx (at most 1,000 orders)",
    auth,
    handler: async ({ account, request, reply, query }) => {
      const file = await s.earnings.exportExcel({ account, ctx: auditContext(request) }, query);
      return sendXlsx(reply, file);
    },
  });
}
