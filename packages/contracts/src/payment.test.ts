import { describe, expect, it } from 'vitest';
import {
  chargeCalls,
  creditChargeCalls,
  paymentCalls,
  purchaseCalls,
  requestPaymentCalls,
  wechatNotifyCalls,
} from './payment-calls.js';
import { INVOICE_PHONE_PATTERN, invoiceApplySchema, paymentsPageQuerySchema, refundInputSchema } from './payment.js';

describe('payment calls', () => {
  it('are at the paths of spec 001 §7 and the notification routes of issue 24', () => {
    const paths = Object.values({
      chargeCalls,
      requestPaymentCalls,
      creditChargeCalls,
      paymentCalls,
      wechatNotifyCalls,
      purchaseCalls,
    })
      .flatMap((table) => Object.values(table))
      .map((c) => `${c.method} ${c.path}`);
    expect(paths).toEqual([
      'POST charge/apply-charge',
      'GET charge/:id/detail',
      'GET charge/:id/payment-status',
      'GET charge/:id/pre-paid-order',
      'POST charge/:id/paid-confirm',
      'DELETE charge/:id/delete',
      'GET charge/request',
      'GET request/:id/payment-status',
      'GET request/:id/pre-paid-order',
      'POST request/:id/paid-confirm',
      'POST credits/charge',
      'POST payments/page-query',
      'GET payments/export-excel',
      'POST payments/:no/refund',
      'POST payments/apply-invoice',
      'POST payments/issue-invoice',
      'GET buckets/:bucketId/invoice-config',
      'PUT buckets/:bucketId/invoice-config',
      'POST payments/weixin/notify',
      'POST payments/weixin/refund-notify',
      'POST credits/weixin-top-up',
      'POST packages/buy',
    ]);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

describe('payment inputs', () => {
  it('takes refunds in whole positive fen with a reason', () => {
    expect(refundInputSchema.safeParse({ amountFen: 1, reason: '重复' }).success).toBe(true);
    expect(refundInputSchema.safeParse({ amountFen: 0, reason: 'x' }).success).toBe(false);
    expect(refundInputSchema.safeParse({ amountFen: 1.5, reason: 'x' }).success).toBe(false);
    expect(refundInputSchema.safeParse({ amountFen: 100, reason: '  ' }).success).toBe(false);
  });
  it('takes mainland mobiles and landlines with area codes as invoice phones', () => {
    for (const ok of ['13812345678', '010-12345678', '057112345678', '0571-1234567-89']) {
      expect(INVOICE_PHONE_PATTERN.test(ok), ok).toBe(true);
    }
    for (const bad of ['12812345678', '1381234567', '12345678', 'abc', '+8613812345678', '']) {
      expect(INVOICE_PHONE_PATTERN.test(bad), bad).toBe(false);
    }
  });
  it('needs at least one order for an invoice', () => {
    const base = { title: '甲城医院', phone: '13812345678' };
    expect(invoiceApplySchema.safeParse({ ...base, orderIds: [] }).success).toBe(false);
    expect(invoiceApplySchema.safeParse({ ...base, orderIds: ['o1'] }).success).toBe(true);
    expect(invoiceApplySchema.safeParse({ ...base, orderIds: ['o1'], phone: '123' }).success).toBe(false);
  });
  it('pages ten at a time by default', () => {
    expect(paymentsPageQuerySchema.parse({})).toEqual({ filters: {}, limit: 10, skip: 0, sorts: [] });
    expect(paymentsPageQuerySchema.safeParse({ limit: 101 }).success).toBe(false);
  });
});
