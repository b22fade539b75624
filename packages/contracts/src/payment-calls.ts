import { z } from 'zod';
import { defineCall } from './call.js';
import {
  chargeApplySchema,
  chargeCreatedSchema,
  chargeDetailSchema,
  chargeStatusSchema,
  creditChargeResultSchema,
  creditChargeSchema,
  invoiceApplySchema,
  invoiceConfigInputSchema,
  invoiceConfigSchema,
  invoiceIssueSchema,
  invoiceSchema,
  ownChargesQuerySchema,
  ownChargesSchema,
  paymentsExportQuerySchema,
  paymentsPageQuerySchema,
  paymentsPageSchema,
  paymentsQuerySchema,
  prePaidOrderQuerySchema,
  prePaidOrderSchema,
  refundInputSchema,
  refundSchema,
  wechatNotifyAnswerSchema,
  weixinTopUpSchema,
} from './payment.js';
import { planBuySchema } from './plan.js';

const idParams = z.object({ id: z.string() });
const noParams = z.object({ no: z.string() });
const bucketParams = z.object({ bucketId: z.string() });

/**
 * The public payment page's calls (spec 001 §7 "Charging, requests and payments"): /charge/{id}
 * makes them with `Authorization: Charge <token>` (the token apply-charge answered, kept in
 * session storage, spec 001 §8). The charge's id is its payment row's.
 */
export const chargeCalls = {
  apply: defineCall({
    method: 'POST',
    path: 'charge/apply-charge',
    body: chargeApplySchema,
    answer: chargeCreatedSchema,
    status: 201,
  }),
  detail: defineCall({ method: 'GET', path: 'charge/:id/detail', params: idParams, answer: chargeDetailSchema }),
  paymentStatus: defineCall({
    method: 'GET',
    path: 'charge/:id/payment-status',
    params: idParams,
    answer: chargeStatusSchema,
  }),
  prePaidOrder: defineCall({
    method: 'GET',
    path: 'charge/:id/pre-paid-order',
    params: idParams,
    query: prePaidOrderQuerySchema,
    answer: prePaidOrderSchema,
  }),
  /** asks the channel and settles the charge when it was paid */
  paidConfirm: defineCall({
    method: 'POST',
    path: 'charge/:id/paid-confirm',
    params: idParams,
    answer: chargeStatusSchema,
  }),
  /** an unpaid charge only (OrderAlreadyPaid otherwise) */
  delete: defineCall({ method: 'DELETE', path: 'charge/:id/delete', params: idParams, status: 204 }),
  /** the caller's own charges (orders, top-ups, packages), newest first; signed in */
  mine: defineCall({ method: 'GET', path: 'charge/request', query: ownChargesQuerySchema, answer: ownChargesSchema }),
};

/**
 * Purchases that are not orders, paid by WeChat Native: a top-up of the group's balance (its admins)
 * and a plan package for a private organization (its admins). Both answer a charge (id + charge
 * token) whose QR and status are charge/{id}/*; the notification settles it once.
 */
export const purchaseCalls = {
  weixinTopUp: defineCall({
    method: 'POST',
    path: 'credits/weixin-top-up',
    body: weixinTopUpSchema,
    answer: chargeCreatedSchema,
    status: 201,
  }),
  buyPackage: defineCall({
    method: 'POST',
    path: 'packages/buy',
    body: planBuySchema,
    answer: chargeCreatedSchema,
    status: 201,
  }),
};

/**
 * The signed-in requester's equivalents on an order (request/{id}, the order's id). detail and
 * delete of request/{id} are the orders module's (contracts order-calls.ts).
 */
export const requestPaymentCalls = {
  paymentStatus: defineCall({
    method: 'GET',
    path: 'request/:id/payment-status',
    params: idParams,
    answer: chargeStatusSchema,
  }),
  prePaidOrder: defineCall({
    method: 'GET',
    path: 'request/:id/pre-paid-order',
    params: idParams,
    query: prePaidOrderQuerySchema,
    answer: prePaidOrderSchema,
  }),
  paidConfirm: defineCall({
    method: 'POST',
    path: 'request/:id/paid-confirm',
    params: idParams,
    answer: chargeStatusSchema,
  }),
};

/** Paying from the group balance: `Charge-Authorization: Bearer <token of credits/create-token>`. */
export const creditChargeCalls = {
  charge: defineCall({
    method: 'POST',
    path: 'credits/charge',
    body: creditChargeSchema,
    answer: creditChargeResultSchema,
  }),
};

/** Refunds, invoices and the payment lists. */
export const paymentCalls = {
  pageQuery: defineCall({
    method: 'POST',
    path: 'payments/page-query',
    query: paymentsQuerySchema,
    body: paymentsPageQuerySchema,
    answer: paymentsPageSchema,
  }),
  /** .xlsx; at most 1,000 rows (ExportLimitExceeded) */
  exportExcel: defineCall({ method: 'GET', path: 'payments/export-excel', query: paymentsExportQuerySchema }),
  /** Idempotency-Key header; never more than was paid (RefundExceedsPaid) */
  refund: defineCall({
    method: 'POST',
    path: 'payments/:no/refund',
    params: noParams,
    body: refundInputSchema,
    answer: refundSchema,
    status: 201,
  }),
  applyInvoice: defineCall({
    method: 'POST',
    path: 'payments/apply-invoice',
    body: invoiceApplySchema,
    answer: invoiceSchema,
    status: 201,
  }),
  issueInvoice: defineCall({
    method: 'POST',
    path: 'payments/issue-invoice',
    body: invoiceIssueSchema,
    answer: invoiceSchema,
  }),
  invoiceConfig: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/invoice-config',
    params: bucketParams,
    answer: invoiceConfigSchema,
  }),
  /** version-checked: the body's version must be the one GET answered (Conflict 409 otherwise) */
  updateInvoiceConfig: defineCall({
    method: 'PUT',
    path: 'buckets/:bucketId/invoice-config',
    params: bucketParams,
    body: invoiceConfigInputSchema,
    answer: invoiceConfigSchema,
  }),
};

/**
 * WeChat Pay's notifications (public; the raw body is verified by the provider). Their bodies are
 * WeChat's (resource encrypted with the APIv3 key), read raw, so no body schema here.
 */
export const wechatNotifyCalls = {
  payment: defineCall({ method: 'POST', path: 'payments/weixin/notify', answer: wechatNotifyAnswerSchema }),
  refund: defineCall({ method: 'POST', path: 'payments/weixin/refund-notify', answer: wechatNotifyAnswerSchema }),
};
