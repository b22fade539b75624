import { and, eq, isNull, sql } from 'drizzle-orm';
import { jobs, orders, products, type OrderRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

export const TURNAROUND_JOB = 'orders.turnaround';

/**
 * Queues the order's turnaround check at its deadline (a job of platform/jobs.ts, in the caller's
 * transaction, as JobQueue.enqueue writes it: the order's payment and its check commit together).
 */
export async function queueTurnaroundCheck(tx: Db, orderId: string, deadlineAt: Date, now: Date): Promise<void> {
  await tx.insert(jobs).values({
    kind: TURNAROUND_JOB,
    payload: { orderId },
    maxAttempts: 5,
    runAfter: deadlineAt,
    createdAt: now,
    updatedAt: now,
  });
}

/** The order under its lock, with its product's breach credit share (0 when the product is gone). */
export async function lockForBreach(
  tx: Db,
  orderId: string,
): Promise<{ order: OrderRow; breachCreditBp: number } | undefined> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) return undefined;
  const [product] = order.productId
    ? await tx.select({ bp: products.breachCreditBp }).from(products).where(eq(products.id, order.productId))
    : [];
  return { order, breachCreditBp: product?.bp ?? 0 };
}

/** Records the breach (once: only while breached_at is still null). */
export async function markBreached(tx: Db, orderId: string, at: Date, creditFen: number): Promise<boolean> {
  const rows = await tx
    .update(orders)
    .set({ breachedAt: at, slaCreditFen: creditFen, updated: at, version: sql`${orders.version} + 1` })
    .where(and(eq(orders.id, orderId), isNull(orders.breachedAt)))
    .returning({ id: orders.id });
  return rows.length > 0;
}
