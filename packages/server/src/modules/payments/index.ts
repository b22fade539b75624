// The face of the payments module (issue 24: charges, the balance channel, WeChat notifications,
// refunds, invoices, payment lists): what app.ts may use. Everything else here is private to it.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { Signer } from '../../platform/signed.js';
import { ChargeService } from './charge.service.js';
import type { WechatChannel } from './channel.js';
import { CreditChargeService } from './credit-charge.service.js';
import { EarningsService } from './earnings.service.js';
import { InvoicesListService } from './invoices-list.service.js';
import { InvoicesService } from './invoices.service.js';
import { WechatNotifyService } from './notify.service.js';
import { PaymentsListService } from './payments-list.service.js';
import { PurchasesService } from './purchases.service.js';
import { RefundsService } from './refunds.service.js';

export { paymentRoutes } from './payments.routes.js';
export { expertOfPayment } from './payments.owners.js';
export type { WechatChannel } from './channel.js';

export interface PaymentServices {
  charges: ChargeService;
  credit: CreditChargeService;
  refunds: RefundsService;
  notify: WechatNotifyService;
  invoices: InvoicesService;
  invoiceList: InvoicesListService;
  earnings: EarningsService;
  list: PaymentsListService;
  /** WeChat top-ups, plan packages, the caller's own charges */
  purchases: PurchasesService;
  /** closes the WeChat Pay channel (the simulator, in sim mode) */
  close(): Promise<void>;
}

/** The payments services; no `wechatPay`: payment by WeChat is off (YYP_WECHATPAY=off). */
export function paymentServices(deps: {
  db: Db;
  clock: Clock;
  signer: Signer;
  wechatPay?: { channel: WechatChannel; close?: () => Promise<void> } | null;
  log?: FastifyBaseLogger;
}): PaymentServices {
  const { db, clock } = deps;
  const wechat = deps.wechatPay?.channel ?? null;
  const charges = new ChargeService(db, clock, deps.signer, wechat);
  const refunds = new RefundsService(db, clock, wechat);
  return {
    charges,
    credit: new CreditChargeService(db, clock, charges, wechat),
    refunds,
    notify: new WechatNotifyService(db, clock, wechat, refunds, deps.log),
    invoices: new InvoicesService(db, clock),
    invoiceList: new InvoicesListService(db),
    earnings: new EarningsService(db, clock),
    list: new PaymentsListService(db, clock),
    purchases: new PurchasesService(db, clock, deps.signer, wechat),
    close: async () => deps.wechatPay?.close?.(),
  };
}
