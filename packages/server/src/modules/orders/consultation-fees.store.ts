import crypto from 'node:crypto';
import { PRODUCT_TYPE, type ConsultationFee, type Currency, type PaymentStatus } from '@yyp/contracts';
import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import { orders, type OrderRow, type ProductRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { getDomainConfig } from '../domain/index.js';
import { newOrderNo } from './orders.service.js';
import { productsOf } from './products.store.js';

/**
 * A consultation's fee (issue 25, "paid through the billing capability"): an order of type
 * consultation, from the consultation's source organization to its target, at the price of the
 * target's first active consultation product (type 3). It is an order like the report orders in all
 * that money touches (the payment page, WeChat and the balance, refunds, invoices, earnings, the
 * order and payment lists) and in nothing else: no exam is shared by it, no turnaround runs, spec
 * 000 §5's once per exam is not about it. The consultations module opens and closes it through the
 * face; the payments module settles it as any order.
 */

export interface ConsultationForFee {
  consultationId: string;
  groupId: string;
  sourceBucketId: string;
  targetBucketId: string;
  /** the bound source exam the order names (its payment page is /exams/{examId}/apply-report/{orderId}) */
  examId: string;
  patientName: string;
  patientGender: string;
  patientAge: string;
  applicantId: string | null;
  reason: string;
}

/**
 * Opens the consultation's fee when it costs something: the payment service is on and the target
 * sells consultations at a price above 0. Its live fee when it has one already; null when it is free.
 * The caller holds the consultation's row lock (one fee per consultation; the partial unique index
 * orders_consultation_live_idx backs it).
 */
export async function openConsultationFee(tx: Db, c: ConsultationForFee, now: Date): Promise<OrderRow | null> {
  const live = await liveFee(tx, c.consultationId);
  if (live) return live;
  const product = await consultationProductOf(tx, c.targetBucketId);
  if (!product) return null;
  const [row] = await tx
    .insert(orders)
    .values({
      id: crypto.randomUUID(),
      orderNo: newOrderNo(now),
      type: 'consultation',
      groupId: c.groupId,
      requestBucketId: c.sourceBucketId,
      targetBucketId: c.targetBucketId,
      examId: c.examId,
      consultationId: c.consultationId,
      productId: product.id,
      productName: product.name,
      priceFen: product.priceFen,
      currency: product.currency,
      patientName: c.patientName,
      patientGender: c.patientGender,
      patientAge: c.patientAge,
      applicantId: c.applicantId,
      reason: c.reason,
      created: now,
      updated: now,
    })
    .returning();
  return row!;
}

/**
 * What a consultation asked of this organization costs: its first active consultation product (in
 * the order they were added) priced above 0, while the payment service is on; undefined: free.
 */
export async function consultationProductOf(db: Db, bucketId: string): Promise<ProductRow | undefined> {
  if (!(await getDomainConfig(db)).enablePaymentService) return undefined;
  const [product] = await productsOf(db, bucketId, PRODUCT_TYPE.consultation, true);
  return product && product.priceFen > 0 ? product : undefined;
}

/**
 * The consultation closed: its live fee is reported (completed: the experts did what was paid for)
 * or cancelled (a later payment of it is then a duplicate, refunded in full, settle.ts). Nothing when
 * it had none.
 */
export async function closeConsultationFee(
  tx: Db,
  consultationId: string,
  outcome: 'completed' | 'canceled',
  now: Date,
  reason = '',
): Promise<void> {
  const live = await liveFee(tx, consultationId);
  if (!live) return;
  const changes =
    outcome === 'completed'
      ? { status: 'reported', reportedAt: now }
      : { status: 'cancelled', cancelledAt: now, cancelReason: reason };
  await tx
    .update(orders)
    .set({ ...changes, updated: now, version: live.version + 1 })
    .where(eq(orders.id, live.id));
}

/** The fees of these consultations: each one's live fee, else its newest closed one; none when free. */
export async function consultationFees(db: Db, consultationIds: string[]): Promise<Map<string, ConsultationFee>> {
  if (consultationIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.type, 'consultation'), inArray(orders.consultationId, consultationIds)))
    .orderBy(desc(orders.created), desc(orders.id));
  const chosen = new Map<string, OrderRow>();
  for (const r of rows) {
    const seen = chosen.get(r.consultationId!);
    if (!seen || (seen.status === 'cancelled' && r.status !== 'cancelled')) chosen.set(r.consultationId!, r);
  }
  return new Map([...chosen].map(([id, r]) => [id, feeOut(r)]));
}

function feeOut(r: OrderRow): ConsultationFee {
  return {
    orderId: r.id,
    orderNo: r.orderNo,
    examId: r.examId,
    productName: r.productName,
    priceFen: r.priceFen,
    currency: r.currency as Currency,
    paymentStatus: r.paymentStatus as PaymentStatus,
    paidAt: r.paidAt ? r.paidAt.toISOString() : null,
  };
}

async function liveFee(db: Db, consultationId: string): Promise<OrderRow | undefined> {
  const rows = await db
    .select()
    .from(orders)
    .where(
      and(eq(orders.type, 'consultation'), eq(orders.consultationId, consultationId), ne(orders.status, 'cancelled')),
    )
    .limit(1);
  return rows[0];
}
