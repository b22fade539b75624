import { and, asc, eq, inArray } from 'drizzle-orm';
import { orderApplyForms, type OrderApplyFormRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

export function applyFormsOf(db: Db, orderId: string): Promise<OrderApplyFormRow[]> {
  return db
    .select()
    .from(orderApplyForms)
    .where(eq(orderApplyForms.orderId, orderId))
    .orderBy(asc(orderApplyForms.created), asc(orderApplyForms.id));
}

export async function applyFormByKey(db: Db, blobKey: string): Promise<OrderApplyFormRow | undefined> {
  return (await db.select().from(orderApplyForms).where(eq(orderApplyForms.blobKey, blobKey)).limit(1))[0];
}

export async function insertApplyForm(db: Db, row: typeof orderApplyForms.$inferInsert): Promise<OrderApplyFormRow> {
  const [out] = await db.insert(orderApplyForms).values(row).returning();
  return out!;
}

export function countApplyForms(db: Db, orderId: string): Promise<number> {
  return applyFormsOf(db, orderId).then((rows) => rows.length);
}

/** Deletes these forms of the order; answers the rows deleted. */
export function deleteApplyForms(db: Db, orderId: string, ids: string[]): Promise<OrderApplyFormRow[]> {
  return db
    .delete(orderApplyForms)
    .where(and(eq(orderApplyForms.orderId, orderId), inArray(orderApplyForms.id, ids)))
    .returning();
}
