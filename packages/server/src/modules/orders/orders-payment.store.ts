import type { Currency, OrderStatus, OrderType, PaymentChannel, PaymentStatus } from '@yyp/contracts';
import { PAYMENT_STATUS } from '@yyp/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { groupExpertBuckets, orders, products } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { shareExam } from './orders-share.store.js';
import { queueTurnaroundCheck } from './turnaround.store.js';

/** What the payments module needs of an order (billing-interfaces.md). */
export interface OrderForPayment {
  id: string;
  orderNo: string;
  type: OrderType;
  groupId: string;
  requestBucketId: string;
  targetBucketId: string;
  examId: string;
  productName: string;
  priceFen: number;
  currency: Currency;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  channel: PaymentChannel | null;
  paidFen: number;
  refundedFen: number;
  version: number;
}

const paymentColumns = {
  id: orders.id,
  orderNo: orders.orderNo,
  type: orders.type,
  groupId: orders.groupId,
  requestBucketId: orders.requestBucketId,
  targetBucketId: orders.targetBucketId,
  examId: orders.examId,
  productName: orders.productName,
  priceFen: orders.priceFen,
  currency: orders.currency,
  status: orders.status,
  paymentStatus: orders.paymentStatus,
  channel: orders.channel,
  paidFen: orders.paidFen,
  refundedFen: orders.refundedFen,
  version: orders.version,
};

/** The order as the payments module sees it, null when there is none. */
export async function orderForPayment(db: Db, orderId: string): Promise<OrderForPayment | null> {
  const rows = await db.select(paymentColumns).from(orders).where(eq(orders.id, orderId)).limit(1);
  const r = rows[0];
  return r ? (r as OrderForPayment) : null;
}

/**
 * The order is paid (payment settled by the payments module, in its transaction): payment status 1,
 * the channel, the amount and time, and the turnaround clock starts (deadline = paid + the product's
 * turnaround, none when the product promises none); the exam is shared into the expert organization.
 */
export async function recordOrderPaid(
  db: Db,
  orderId: string,
  p: { channel: PaymentChannel; paidFen: number; paidAt: Date },
): Promise<void> {
  const turnaround = await db
    .select({ minutes: products.turnaroundMinutes, type: orders.type })
    .from(orders)
    .leftJoin(products, eq(products.id, orders.productId))
    .where(eq(orders.id, orderId))
    .limit(1);
  // A consultation's fee: the consultation takes it from here (its experts may now schedule it).
  const fee = turnaround[0]?.type === 'consultation';
  const minutes = fee ? null : (turnaround[0]?.minutes ?? null);
  const deadlineAt = minutes === null ? null : new Date(p.paidAt.getTime() + minutes * 60_000);
  await db
    .update(orders)
    .set({
      paymentStatus: PAYMENT_STATUS.paid,
      channel: p.channel,
      paidFen: p.paidFen,
      paidAt: p.paidAt,
      deadlineAt,
      updated: p.paidAt,
      version: sql`${orders.version} + 1`,
    })
    .where(eq(orders.id, orderId));
  // Paid: the order reaches the experts now (once; a cancelled order stays with the requester).
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (order && !fee && order.status !== 'cancelled') await shareExam(db, order, p.paidAt);
  if (deadlineAt) await queueTurnaroundCheck(db, orderId, deadlineAt, p.paidAt);
}

/** The payment status after a refund: refunding while one is pending, else refunded in full or in part. */
export function statusAfterRefund(paidFen: number, refundedFen: number, pending: boolean): PaymentStatus {
  if (pending) return PAYMENT_STATUS.refunding;
  if (refundedFen <= 0) return PAYMENT_STATUS.paid;
  return refundedFen >= paidFen ? PAYMENT_STATUS.refunded : PAYMENT_STATUS.partiallyRefunded;
}

/** A refund of the order moved (payments module, in its transaction): the refunded total and status. */
export async function recordOrderRefund(
  db: Db,
  orderId: string,
  p: { refundedFen: number; pending: boolean },
): Promise<void> {
  const rows = await db.select({ paidFen: orders.paidFen }).from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!rows[0]) return;
  await db
    .update(orders)
    .set({
      refundedFen: p.refundedFen,
      paymentStatus: statusAfterRefund(rows[0].paidFen, p.refundedFen, p.pending),
      updated: new Date(),
      version: sql`${orders.version} + 1`,
    })
    .where(eq(orders.id, orderId));
}

/** The requesting organization of an order (route auth of the requester's calls). */
export async function ownerOfOrder(db: Db, orderId: string): Promise<string | undefined> {
  const rows = await db
    .select({ bucketId: orders.requestBucketId })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  return rows[0]?.bucketId;
}

/** The expert organization of an order (route auth of the expert side's calls). */
export async function targetOfOrder(db: Db, orderId: string): Promise<string | undefined> {
  const rows = await db.select({ bucketId: orders.targetBucketId }).from(orders).where(eq(orders.id, orderId)).limit(1);
  return rows[0]?.bucketId;
}

/**
 * Locks the order row until the caller's transaction ends, so two payments of one order (a QR and
 * the balance) settle one after the other and the second sees the first.
 */
export async function lockOrderRow(db: Db, orderId: string): Promise<void> {
  await db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update');
}

/** Moves the orders from invoice status `from` to `to` under the invoice; answers how many moved. */
export async function moveOrdersInvoice(
  db: Db,
  where: { orderIds: string[] } | { invoiceId: string },
  from: string,
  to: string,
  invoiceId: string,
  now: Date,
): Promise<number> {
  const which = 'orderIds' in where ? inArray(orders.id, where.orderIds) : eq(orders.invoiceId, where.invoiceId);
  const rows = await db
    .update(orders)
    .set({ invoiceStatus: to, invoiceId, updated: now, version: sql`${orders.version} + 1` })
    .where(and(which, eq(orders.invoiceStatus, from)))
    .returning({ id: orders.id });
  return rows.length;
}

/** Whether the expert organization charges for reads ordered by the group (group_expert_buckets.paid; unlisted: paid). */
export async function expertIsPaid(db: Db, groupId: string, bucketId: string): Promise<boolean> {
  const rows = await db
    .select({ paid: groupExpertBuckets.paid })
    .from(groupExpertBuckets)
    .where(and(eq(groupExpertBuckets.groupId, groupId), eq(groupExpertBuckets.bucketId, bucketId)))
    .limit(1);
  return rows[0]?.paid ?? true;
}
