import { and, eq, inArray, sql } from 'drizzle-orm';
import { refunds, type RefundRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The refunds of payments (spec 000 §3 "refund number, time, amount, operator and reason"). */

export async function insertRefund(db: Db, row: typeof refunds.$inferInsert): Promise<RefundRow> {
  const [inserted] = await db.insert(refunds).values(row).returning();
  return inserted!;
}

export async function refundByKey(db: Db, paymentId: string, key: string): Promise<RefundRow | undefined> {
  const rows = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), eq(refunds.idempotencyKey, key)))
    .limit(1);
  return rows[0];
}

export async function refundByNo(db: Db, refundNo: string): Promise<RefundRow | undefined> {
  const rows = await db.select().from(refunds).where(eq(refunds.refundNo, refundNo)).limit(1);
  return rows[0];
}

/** What the payment's refunds still in flight hold back (they count against what is refundable). */
export async function processingFen(db: Db, paymentId: string): Promise<number> {
  const rows = await db
    .select({ sum: sql<string>`coalesce(sum(${refunds.amountFen}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), eq(refunds.status, 'processing')));
  return Number(rows[0]?.sum ?? 0);
}

export async function finishRefund(
  db: Db,
  id: string,
  p: { status: 'success' | 'abnormal' | 'closed'; channelRefundId?: string | null; at: Date },
): Promise<void> {
  await db
    .update(refunds)
    .set({
      status: p.status,
      finishedAt: p.at,
      ...(p.channelRefundId ? { channelRefundId: p.channelRefundId } : {}),
    })
    .where(eq(refunds.id, id));
}

export async function setChannelRefundId(db: Db, id: string, channelRefundId: string): Promise<void> {
  await db.update(refunds).set({ channelRefundId }).where(eq(refunds.id, id));
}

export async function refundsOfPayments(db: Db, paymentIds: string[]): Promise<RefundRow[]> {
  if (paymentIds.length === 0) return [];
  return db.select().from(refunds).where(inArray(refunds.paymentId, paymentIds)).orderBy(refunds.created, refunds.id);
}

export async function processingRefundsOf(db: Db, paymentId: string): Promise<RefundRow[]> {
  return db
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), eq(refunds.status, 'processing')));
}
