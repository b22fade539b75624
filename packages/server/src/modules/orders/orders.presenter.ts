import type { Order, OrderStatus, OrderType, PaymentChannel, PaymentStatus } from '@yyp/contracts';
import type { OrderRow } from '../../db/schema.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * An order as its side sees it: the requester never learns the experts' exam id (their copy lives
 * in another tenant); the experts see it to open the exam they report.
 */
export function orderOut(r: OrderRow, names: Map<string, string>, side: 'request' | 'target'): Order {
  return {
    id: r.id,
    orderNo: r.orderNo,
    type: r.type as OrderType,
    groupId: r.groupId,
    requestBucketId: r.requestBucketId,
    requestBucketName: names.get(r.requestBucketId) ?? '',
    targetBucketId: r.targetBucketId,
    targetBucketName: names.get(r.targetBucketId) ?? '',
    examId: side === 'request' ? r.examId : (r.targetExamId ?? ''),
    consultationId: r.consultationId,
    targetExamId: side === 'target' ? r.targetExamId : null,
    reportId: side === 'request' ? (r.reportedAt ? r.examId : null) : r.targetExamId,
    productId: r.productId,
    productName: r.productName,
    priceFen: r.priceFen,
    currency: r.currency === 'USD' ? 'USD' : 'CNY',
    status: r.status as OrderStatus,
    paymentStatus: r.paymentStatus as PaymentStatus,
    channel: (r.channel as PaymentChannel | null) ?? null,
    paidFen: r.paidFen,
    refundedFen: r.refundedFen,
    paidAt: iso(r.paidAt),
    needsPayment: needsPayment(r),
    patientName: r.patientName,
    patientGender: r.patientGender,
    patientAge: r.patientAge,
    applicantMobile: r.applicantMobile,
    applicantEmail: r.applicantEmail,
    reason: r.reason,
    deadlineAt: iso(r.deadlineAt),
    reportedAt: iso(r.reportedAt),
    breachedAt: iso(r.breachedAt),
    slaCreditFen: r.slaCreditFen,
    invoiceStatus: (r.invoiceStatus as Order['invoiceStatus']) ?? 'none',
    cancelledAt: iso(r.cancelledAt),
    cancelReason: r.cancelReason,
    created: r.created.toISOString(),
    version: r.version,
  };
}

/** An order waits for a payment when it costs something and is not paid yet (unpaid organizations' orders cost 0). */
export function needsPayment(r: Pick<OrderRow, 'priceFen' | 'paymentStatus' | 'status'>): boolean {
  return r.priceFen > 0 && r.paymentStatus === 0 && r.status !== 'cancelled';
}

/**
 * Whether the experts may see the order: paid, or needing no payment (billing-interfaces.md); a
 * report order once its exam is shared, a consultation's fee (no exam of theirs) from the start.
 */
export function visibleToExperts(r: Pick<OrderRow, 'type' | 'priceFen' | 'paymentStatus' | 'targetExamId'>): boolean {
  return (r.type === 'consultation' || r.targetExamId !== null) && (r.priceFen === 0 || r.paymentStatus !== 0);
}
