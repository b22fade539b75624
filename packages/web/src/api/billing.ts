import type {
  ChargeCreated,
  ChargeDetail,
  ChargeStatus,
  CreditChargeResult,
  Invoice,
  InvoiceApply,
  InvoiceConfig,
  InvoiceConfigInput,
  InvoiceIssue,
  PaymentsPage,
  PaymentsPageQuery,
  PrePaidOrder,
  Refund,
  RefundInput,
} from '@yyp/contracts';
import {
  CHARGE_TOKEN_SCHEME,
  IDEMPOTENCY_HEADER,
  chargeCalls,
  creditChargeCalls,
  paymentCalls,
  requestPaymentCalls,
} from '@yyp/contracts';
import { callApi } from './call';

/**
 * Payments (issue 24; contracts payment-calls.ts). The public /charge/{id} page calls with
 * `Authorization: Charge <token>` and never the account's bearer (it may be open in a browser with
 * nobody signed in, or someone else signed in).
 */

function asCharge(token: string) {
  return { anonymous: true, headers: { Authorization: `${CHARGE_TOKEN_SCHEME} ${token}` } };
}

/** A key for one money-changing request: a retried request (same key) is answered once. */
export function newIdempotencyKey(): string {
  return `web-${crypto.randomUUID()}`;
}

export function applyCharge(orderId: string): Promise<ChargeCreated> {
  return callApi(chargeCalls.apply, { body: { orderId } });
}

export function fetchChargeDetail(id: string, token: string, signal?: AbortSignal): Promise<ChargeDetail> {
  return callApi(chargeCalls.detail, { params: { id } }, { signal, ...asCharge(token) });
}

export function fetchChargeStatus(id: string, token: string, signal?: AbortSignal): Promise<ChargeStatus> {
  return callApi(chargeCalls.paymentStatus, { params: { id } }, { signal, ...asCharge(token) });
}

export function fetchChargeQr(
  id: string,
  token: string,
  refresh: boolean,
  signal?: AbortSignal,
): Promise<PrePaidOrder> {
  return callApi(
    chargeCalls.prePaidOrder,
    { params: { id }, query: refresh ? { refresh: '1' } : {} },
    { signal, ...asCharge(token) },
  );
}

export function confirmChargePaid(id: string, token: string): Promise<ChargeStatus> {
  return callApi(chargeCalls.paidConfirm, { params: { id } }, asCharge(token));
}

/** The signed-in requester's payment of an order (request/{id}/…, the order's id). */
export function fetchRequestPaymentStatus(orderId: string, signal?: AbortSignal): Promise<ChargeStatus> {
  return callApi(requestPaymentCalls.paymentStatus, { params: { id: orderId } }, { signal });
}

export function fetchRequestQr(orderId: string, refresh: boolean, signal?: AbortSignal): Promise<PrePaidOrder> {
  return callApi(
    requestPaymentCalls.prePaidOrder,
    { params: { id: orderId }, query: refresh ? { refresh: '1' } : {} },
    { signal },
  );
}

export function confirmRequestPaid(orderId: string): Promise<ChargeStatus> {
  return callApi(requestPaymentCalls.paidConfirm, { params: { id: orderId } });
}

/** credits/charge with the single-use bearer credits/create-token gave (`Charge-Authorization`). */
export function chargeFromCredit(orderId: string, creditToken: string): Promise<CreditChargeResult> {
  return callApi(
    creditChargeCalls.charge,
    { body: { orderId } },
    { headers: { 'Charge-Authorization': `Bearer ${creditToken}`, [IDEMPOTENCY_HEADER]: newIdempotencyKey() } },
  );
}

export function queryPayments(
  bucketId: string,
  side: 'payer' | 'expert',
  body: PaymentsPageQuery,
  signal?: AbortSignal,
): Promise<PaymentsPage> {
  return callApi(paymentCalls.pageQuery, { query: { bucketId, side }, body }, { signal });
}

export function refundPayment(paymentNo: string, body: RefundInput, idempotencyKey: string): Promise<Refund> {
  return callApi(
    paymentCalls.refund,
    { params: { no: paymentNo }, body },
    { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } },
  );
}

export function applyInvoice(body: InvoiceApply): Promise<Invoice> {
  return callApi(paymentCalls.applyInvoice, { body });
}

export function issueInvoice(body: InvoiceIssue): Promise<Invoice> {
  return callApi(paymentCalls.issueInvoice, { body });
}

export function fetchInvoiceConfig(bucketId: string, signal?: AbortSignal): Promise<InvoiceConfig> {
  return callApi(paymentCalls.invoiceConfig, { params: { bucketId } }, { signal });
}

export function saveInvoiceConfig(bucketId: string, body: InvoiceConfigInput): Promise<InvoiceConfig> {
  return callApi(paymentCalls.updateInvoiceConfig, { params: { bucketId }, body });
}

/** payments/export-excel (.xlsx, at most 1,000 rows: ExportLimitExceeded beyond). */
export function exportPayments(query: {
  bucketId: string;
  side: 'payer' | 'expert';
  from?: string;
  to?: string;
  language: 'chs' | 'en' | 'tib';
}): Promise<Blob> {
  return callApi(
    paymentCalls.exportExcel,
    { query },
    { as: 'blob', timeoutMs: 120_000 },
  ) as Promise<unknown> as Promise<Blob>;
}
