import { CONSULTATION_STATUS_VALUES, type ConsultationFee, type Currency, type PaymentStatus } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { closeConsultationFee, consultationFees, consultationProductOf, openConsultationFee } from '../orders/index.js';
import { findConsultation } from './consultation-access.store.js';

/**
 * The consultation's fee (issue 25: "payment status is shown where the consultation is paid through
 * the billing capability (a consultation product)"): an order of type consultation, kept by the orders
 * module. It is opened when the first exam is bound to a pending consultation whose target sells
 * consultations (the payment service on), paid on the order's payment page, and closed with the
 * consultation (completed: reported; canceled or deleted: cancelled). The rules read its payment
 * status: the experts take it on once paid; it is refunded before it is cancelled.
 */

/** Opens the fee, if it costs something, once an exam is bound (the caller holds the row lock). */
export async function openFeeOnBind(tx: Db, consultationId: string, examId: string, now: Date): Promise<void> {
  const c = await findConsultation(tx, consultationId);
  if (!c || c.status !== CONSULTATION_STATUS_VALUES.pending) return;
  await openConsultationFee(
    tx,
    {
      consultationId: c.id,
      groupId: c.groupId,
      sourceBucketId: c.sourceBucketId,
      targetBucketId: c.targetBucketId,
      examId,
      patientName: c.patientName,
      patientGender: c.patientGender,
      patientAge: c.patientAge,
      applicantId: c.creatorId,
      reason: c.reason,
    },
    now,
  );
}

/** The consultation closed: its fee is reported (completed) or cancelled (canceled, deleted). */
export function closeFee(tx: Db, consultationId: string, outcome: 'completed' | 'canceled', now: Date, reason = '') {
  return closeConsultationFee(tx, consultationId, outcome, now, reason);
}

/** The fees of these consultations (none: free). */
export function feesOf(db: Db, consultationIds: string[]): Promise<Map<string, ConsultationFee>> {
  return consultationFees(db, consultationIds);
}

/** The payment status the rules read: the fee's, null when free. */
export async function paymentOf(db: Db, consultationId: string): Promise<PaymentStatus | null> {
  return (await feesOf(db, [consultationId])).get(consultationId)?.paymentStatus ?? null;
}

/** What a consultation asked of the target costs now (consultations/buckets), null: free. */
export async function priceAt(
  db: Db,
  targetBucketId: string,
): Promise<{ productName: string; priceFen: number; currency: Currency } | null> {
  const product = await consultationProductOf(db, targetBucketId);
  return product
    ? { productName: product.name, priceFen: product.priceFen, currency: product.currency as Currency }
    : null;
}
