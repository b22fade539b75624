import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { jobs, orders, products, type OrderRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** Whether a sweep job of this kind is already waiting (queued, or also running when asked). */
export async function jobPending(db: Db, kind: string, statuses: string[]): Promise<boolean> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, kind), inArray(jobs.status, statuses), sql`${jobs.payload}->>'next' = '1'`))
    .limit(1);
  return rows.length > 0;
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
