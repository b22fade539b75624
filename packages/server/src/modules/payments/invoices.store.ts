import { and, eq, inArray, sql } from 'drizzle-orm';
import { invoiceConfigs, invoices, orders, type InvoiceRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/**
 * Invoices and the expert organizations' invoice settings. An invoice covers orders; each order
 * carries its invoice status (none → applied → issued) and the invoice's id, written here only
 * with a guard on the status it leaves, so two applications for one order at once cannot both win.
 */

export type InvoiceConfigRow = typeof invoiceConfigs.$inferSelect;

export async function invoiceConfigOf(db: Db, bucketId: string): Promise<InvoiceConfigRow | undefined> {
  const rows = await db.select().from(invoiceConfigs).where(eq(invoiceConfigs.bucketId, bucketId)).limit(1);
  return rows[0];
}

export async function upsertInvoiceConfig(
  db: Db,
  bucketId: string,
  c: { supportsInvoice: boolean; issuerName: string; taxNo: string; note: string },
  now: Date,
): Promise<InvoiceConfigRow> {
  const [row] = await db
    .insert(invoiceConfigs)
    .values({ bucketId, ...c, updated: now })
    .onConflictDoUpdate({
      target: invoiceConfigs.bucketId,
      set: { ...c, updated: now, version: sql`${invoiceConfigs.version} + 1` },
    })
    .returning();
  return row!;
}

/**
 * Saves the settings at the version they were read (0: none saved yet); undefined when the row has
 * moved on (or, at 0, was saved meanwhile), and then nothing is written.
 */
export async function saveInvoiceConfigAt(
  db: Db,
  bucketId: string,
  c: { supportsInvoice: boolean; issuerName: string; taxNo: string; note: string },
  version: number,
  now: Date,
): Promise<InvoiceConfigRow | undefined> {
  if (version === 0) {
    const rows = await db
      .insert(invoiceConfigs)
      .values({ bucketId, ...c, updated: now })
      .onConflictDoNothing({ target: invoiceConfigs.bucketId })
      .returning();
    return rows[0];
  }
  const rows = await db
    .update(invoiceConfigs)
    .set({ ...c, updated: now, version: sql`${invoiceConfigs.version} + 1` })
    .where(and(eq(invoiceConfigs.bucketId, bucketId), eq(invoiceConfigs.version, version)))
    .returning();
  return rows[0];
}

/** What the invoice rules read of each order (spec 000 §5). */
export async function ordersForInvoice(db: Db, orderIds: string[]) {
  return db
    .select({
      id: orders.id,
      type: orders.type,
      requestBucketId: orders.requestBucketId,
      targetBucketId: orders.targetBucketId,
      paymentStatus: orders.paymentStatus,
      channel: orders.channel,
      paidFen: orders.paidFen,
      refundedFen: orders.refundedFen,
      currency: orders.currency,
      invoiceStatus: orders.invoiceStatus,
    })
    .from(orders)
    .where(inArray(orders.id, orderIds));
}

export async function insertInvoice(db: Db, row: typeof invoices.$inferInsert): Promise<InvoiceRow> {
  const [inserted] = await db.insert(invoices).values(row).returning();
  return inserted!;
}

export async function invoiceById(db: Db, id: string): Promise<InvoiceRow | undefined> {
  const rows = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  return rows[0];
}

/** Issues an applied invoice; undefined when it was not applied (already issued, or gone). */
export async function issueInvoice(
  db: Db,
  id: string,
  p: { invoiceNo: string; issuedBy: string; issuedAt: Date },
): Promise<InvoiceRow | undefined> {
  const rows = await db
    .update(invoices)
    .set({ status: 'issued', ...p, version: sql`${invoices.version} + 1` })
    .where(and(eq(invoices.id, id), eq(invoices.status, 'applied')))
    .returning();
  return rows[0];
}

export async function orderIdsOfInvoice(db: Db, invoiceId: string): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.invoiceId, invoiceId))
    .orderBy(orders.id);
  return rows.map((r) => r.id);
}
