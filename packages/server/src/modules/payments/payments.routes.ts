import {
  chargeCalls,
  creditChargeCalls,
  IDEMPOTENCY_HEADER,
  paymentCalls,
  purchaseCalls,
  requestPaymentCalls,
} from '@yyp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import { ownerOfOrder } from '../orders/index.js';
import { chargeTokenOf } from './charge-token.js';
import { creditTokenOf } from './credit-charge.service.js';
import type { PaymentServices } from './index.js';
import { invoiceListRoutes } from './invoices.routes.js';
import { wechatNotifyRoutes } from './payments-notify.routes.js';
import { expertOfPayment } from './payments.owners.js';
import { RefundsService } from './refunds.service.js';
import { sendXlsx } from '../../platform/xlsx.js';

/**
 * The payments module's calls (contracts payment-calls.ts). charge/{id}/* are public: the charge
 * token (`Authorization: Charge <token>`) is their credential. request/{id}/* name the order, whose
 * requesting organization the route resolves and the service checks for the ordering action
 * (NoPermissionToPay); refunds need payment_refund in the organization paid (spec 000 §6 "refunds
 * for order admins": the expert organization's order admins); invoices are checked in the service
 * on the orders they name.
 */
export async function paymentRoutes(app: FastifyInstance, db: Db, s: PaymentServices): Promise<void> {
  const caller = ({ account, request }: { account: AccountRow; request: FastifyRequest }) => ({
    account,
    ctx: auditContext(request),
  });
  const opened = (request: FastifyRequest, id: string) =>
    s.charges.opened(id, chargeTokenOf(request.headers.authorization));
  const ofOrder = { action: 'bucket_read', owner: ownerFrom('id', ownerOfOrder, db) } as const;
  const ofQueryBucket = ({ query }: RawInput) => (typeof query.bucketId === 'string' ? query.bucketId : undefined);

  defineCallRoute(app, chargeCalls.apply, {
    summary: "Open a WeChat charge for an order; answers its id and the public page's charge token",
    auth: 'account',
    handler: (input) => s.charges.apply(caller(input), input.body.orderId),
  });
  definePublicCallRoute(app, chargeCalls.detail, {
    summary: 'A charge as its payment page shows it (Authorization: Charge <token>)',
    handler: async ({ request, params }) => s.charges.detail(await opened(request, params.id)),
  });
  definePublicCallRoute(app, chargeCalls.paymentStatus, {
    summary: "A charge's payment status, polled by its page (Authorization: Charge <token>)",
    handler: async ({ request, params }) => s.charges.status(await opened(request, params.id)),
  });
  definePublicCallRoute(app, chargeCalls.prePaidOrder, {
    summary: "A charge's WeChat Native QR (code_url); refresh=1 makes a new one once it expired",
    handler: async ({ request, params, query }) => {
      const row = await opened(request, params.id);
      return s.charges.prePaid(row.id, query.refresh === '1');
    },
  });
  definePublicCallRoute(app, chargeCalls.paidConfirm, {
    summary: 'Ask WeChat whether the charge was paid, and settle it when it was',
    handler: async ({ request, params }) => s.charges.confirm(await opened(request, params.id), auditContext(request)),
  });
  definePublicCallRoute(app, chargeCalls.delete, {
    summary: 'Close an unpaid charge (at WeChat too)',
    handler: async ({ request, params }) => s.charges.remove(await opened(request, params.id), auditContext(request)),
  });

  defineCallRoute(app, chargeCalls.mine, {
    summary: "The caller's own charges (orders, top-ups, plan packages), newest first",
    auth: 'account',
    handler: (input) => s.purchases.mine(caller(input), input.query),
  });
  defineCallRoute(app, purchaseCalls.weixinTopUp, {
    summary: "Top up the group's balance by WeChat Native (the group's admins); answers a charge",
    auth: 'account',
    handler: (input) => s.purchases.weixinTopUp(caller(input), input.body),
  });
  defineCallRoute(app, purchaseCalls.buyPackage, {
    summary: 'Buy a plan package for a private organization by WeChat Native (its admins); answers a charge',
    auth: 'account',
    handler: (input) => s.purchases.buyPackage(caller(input), input.body),
  });

  defineCallRoute(app, requestPaymentCalls.paymentStatus, {
    summary: "An order's payment status (its paid charge, else its open one)",
    auth: ofOrder,
    handler: (input) => s.charges.orderStatus(caller(input), input.params.id),
  });
  defineCallRoute(app, requestPaymentCalls.prePaidOrder, {
    summary: "An order's WeChat Native QR (a charge is opened when it has none)",
    auth: ofOrder,
    handler: (input) => s.charges.orderPrePaid(caller(input), input.params.id, input.query.refresh === '1'),
  });
  defineCallRoute(app, requestPaymentCalls.paidConfirm, {
    summary: "Ask WeChat whether the order's open charge was paid, and settle it when it was",
    auth: ofOrder,
    handler: (input) => s.charges.orderConfirm(caller(input), input.params.id),
  });

  defineCallRoute(app, creditChargeCalls.charge, {
    summary: "Pay an order from the group's balance (Charge-Authorization: Bearer <credits/create-token>)",
    auth: 'account',
    handler: (input) =>
      s.credit.charge(caller(input), creditTokenOf(input.request.headers['charge-authorization']), input.body.orderId),
  });

  defineCallRoute(app, paymentCalls.pageQuery, {
    summary: "An organization's payments, as the payer or as the experts paid",
    auth: { action: 'bucket_read', owner: ofQueryBucket },
    handler: (input) => s.list.page(caller(input), input.query, input.body),
  });
  defineCallRoute(app, paymentCalls.exportExcel, {
    summary: "An organization's payments as .xlsx (at most 1,000)",
    auth: { action: 'bucket_read', owner: ofQueryBucket },
    handler: async (input) => {
      const file = await s.list.exportExcel(caller(input), input.query);
      return sendXlsx(input.reply, file);
    },
  });
  defineCallRoute(app, paymentCalls.refund, {
    summary: 'Refund (part of) a payment (Idempotency-Key); never more than was paid',
    auth: { action: 'payment_refund', owner: ownerFrom('no', expertOfPayment, db) },
    handler: (input) =>
      s.refunds.refund(
        input.account,
        auditContext(input.request),
        input.params.no,
        input.body,
        RefundsService.key(input.request.headers[IDEMPOTENCY_HEADER]),
      ),
  });
  defineCallRoute(app, paymentCalls.applyInvoice, {
    summary: 'Apply for an invoice over paid WeChat orders of one expert organization',
    auth: 'account',
    handler: (input) => s.invoices.apply(caller(input), input.body),
  });
  defineCallRoute(app, paymentCalls.issueInvoice, {
    summary: 'Issue an applied invoice (irreversible)',
    auth: 'account',
    handler: (input) => s.invoices.issue(caller(input), input.body),
  });
  defineCallRoute(app, paymentCalls.invoiceConfig, {
    summary: "An expert organization's invoice settings",
    auth: { action: 'bucket_read', owner: ({ params }) => params.bucketId },
    handler: (input) => s.invoices.config(input.params.bucketId),
  });
  defineCallRoute(app, paymentCalls.updateInvoiceConfig, {
    summary: "Change an expert organization's invoice settings (its admins), at the version read (409 when stale)",
    auth: { action: 'bucket_manage', owner: ({ params }) => params.bucketId },
    handler: (input) => s.invoices.updateConfig(caller(input), input.params.bucketId, input.body),
  });
  invoiceListRoutes(app, s);
  await wechatNotifyRoutes(app, s.notify);
  // The channel (in sim mode the simulator) closes with the app.
  app.addHook('onClose', () => s.close());
}
