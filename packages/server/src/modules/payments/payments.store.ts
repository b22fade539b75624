import crypto from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { buckets, payments, type PaymentRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/**
 * The payments module's payment rows (one per attempt to pay an order through a channel). Every
 * change of a row that money hangs on goes through `lockPayment` (select … for update) inside the
 * caller's transaction, so a notification, a paid-confirm and a refund on one payment run one at a
 * time.
 */

/**
 * A new payment or refund number: a letter pair, the UTC time to the second and 10 random hex
 * digits (26 characters, within WeChat's out_trade_no/out_refund_no alphabet and 6–32 length).
 */
export function newNumber(prefix: 'YP' | 'YR', now: Date): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  return `${prefix}${stamp}${crypto.randomBytes(5).toString('hex').toUpperCase()}`;
}

export async function insertPayment(db: Db, row: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [inserted] = await db.insert(payments).values(row).returning();
  return inserted!;
}

export async function paymentById(db: Db, id: string): Promise<PaymentRow | undefined> {
  const rows = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  return rows[0];
}

export async function paymentByNo(db: Db, paymentNo: string): Promise<PaymentRow | undefined> {
  const rows = await db.select().from(payments).where(eq(payments.paymentNo, paymentNo)).limit(1);
  return rows[0];
}

/** The payment row, locked until the caller's transaction ends. */
export async function lockPayment(db: Db, by: { id: string } | { paymentNo: string }): Promise<PaymentRow | undefined> {
  const where = 'id' in by ? eq(payments.id, by.id) : eq(payments.paymentNo, by.paymentNo);
  const rows = await db.select().from(payments).where(where).for('update').limit(1);
  return rows[0];
}

/** The order's newest pending payment of a channel (the one a payer's page keeps paying). */
export async function pendingPaymentOf(db: Db, orderId: string, channel: string): Promise<PaymentRow | undefined> {
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.channel, channel), eq(payments.status, 'pending')))
    .orderBy(desc(payments.created), desc(payments.id))
    .limit(1);
  return rows[0];
}

/** Every payment of the order that is still pending, whatever its channel. */
export async function pendingPaymentsOf(db: Db, orderId: string): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'pending')));
}

/** The payment that paid the order (one settles an order; a later one is a duplicate, refunded). */
export async function paidPaymentOf(db: Db, orderId: string): Promise<PaymentRow | undefined> {
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'paid'), eq(payments.purpose, 'order')))
    .orderBy(payments.paidAt)
    .limit(1);
  return rows[0];
}

export async function markPaid(
  db: Db,
  id: string,
  p: { transactionId: string | null; paidAt: Date; now: Date; duplicate: boolean },
): Promise<void> {
  await db
    .update(payments)
    .set({
      status: 'paid',
      // A payment of an order paid by another one is kept apart (and refunded in full).
      ...(p.duplicate ? { purpose: 'duplicate' } : {}),
      transactionId: p.transactionId,
      paidAt: p.paidAt,
      updated: p.now,
      version: sql`${payments.version} + 1`,
    })
    .where(eq(payments.id, id));
}

export async function markClosed(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(payments)
    .set({ status: 'closed', updated: now, version: sql`${payments.version} + 1` })
    .where(and(eq(payments.id, id), eq(payments.status, 'pending')));
}

/**
 * A QR code made for the payment (its out_trade_no may be new, when the last one expired): only
 * when the row is still at `version` and pending, so two pages asking at once keep one code.
 */
export async function setQr(
  db: Db,
  id: string,
  version: number,
  p: { paymentNo: string; codeUrl: string; expiresAt: Date; now: Date },
): Promise<PaymentRow | undefined> {
  const rows = await db
    .update(payments)
    .set({ ...p, updated: p.now, version: sql`${payments.version} + 1` })
    .where(and(eq(payments.id, id), eq(payments.version, version), eq(payments.status, 'pending')))
    .returning();
  return rows[0];
}

export async function addRefunded(db: Db, id: string, amountFen: number, now: Date): Promise<void> {
  await db
    .update(payments)
    .set({
      refundedFen: sql`${payments.refundedFen} + ${amountFen}`,
      updated: now,
      version: sql`${payments.version} + 1`,
    })
    .where(eq(payments.id, id));
}

export async function bucketName(db: Db, bucketId: string): Promise<string> {
  const rows = await db.select({ name: buckets.name }).from(buckets).where(eq(buckets.id, bucketId)).limit(1);
  return rows[0]?.name ?? '';
}
