import type { Currency, Invoice, PaymentItem, Refund } from '@yyp/contracts';
import type { InvoiceRow, RefundRow } from '../../db/schema.js';

/** Rows to answers (contracts payment.ts); amounts stay integer fen. */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentRefund(r: RefundRow, paymentNo: string): Omit<Refund, 'paymentStatus'> {
  return {
    refundNo: r.refundNo,
    paymentNo,
    orderId: r.orderId,
    amountFen: r.amountFen,
    currency: r.currency as Currency,
    status: r.status as Refund['status'],
    reason: r.reason,
    operatorId: r.operatorId,
    created: r.created.toISOString(),
    finishedAt: iso(r.finishedAt),
  };
}

export function presentInvoice(r: InvoiceRow, orderIds: string[]): Invoice {
  return {
    id: r.id,
    bucketId: r.bucketId,
    requestBucketId: r.requestBucketId,
    status: r.status as Invoice['status'],
    title: r.title,
    taxNo: r.taxNo,
    phone: r.phone,
    email: r.email,
    amountFen: r.amountFen,
    currency: r.currency as Currency,
    invoiceNo: r.invoiceNo,
    orderIds,
    appliedAt: r.appliedAt.toISOString(),
    issuedAt: iso(r.issuedAt),
  };
}

/** A row of payments/page-query: the payment joined with its order. */
export interface PaymentListRow {
  id: string;
  paymentNo: string;
  orderId: string | null;
  orderNo: string | null;
  productName: string | null;
  requestBucketId: string | null;
  expertBucketId: string | null;
  channel: string;
  amountFen: number;
  currency: string;
  refundedFen: number;
  status: string;
  paymentStatus: number | null;
  transactionId: string | null;
  invoiceStatus: string | null;
  invoiceId: string | null;
  created: Date;
  paidAt: Date | null;
}

export function presentPaymentItem(r: PaymentListRow, refunds: RefundRow[]): PaymentItem {
  return {
    id: r.id,
    paymentNo: r.paymentNo,
    orderId: r.orderId,
    orderNo: r.orderNo,
    productName: r.productName ?? '',
    requestBucketId: r.requestBucketId,
    expertBucketId: r.expertBucketId,
    channel: r.channel as PaymentItem['channel'],
    amountFen: r.amountFen,
    currency: r.currency as Currency,
    refundedFen: r.refundedFen,
    status: r.status as PaymentItem['status'],
    paymentStatus: (r.paymentStatus ?? 0) as PaymentItem['paymentStatus'],
    transactionId: r.transactionId,
    invoiceStatus: (r.invoiceStatus ?? 'none') as PaymentItem['invoiceStatus'],
    invoiceId: r.invoiceId,
    created: r.created.toISOString(),
    paidAt: iso(r.paidAt),
    refunds: refunds.map((f) => presentRefund(f, r.paymentNo)),
  };
}
