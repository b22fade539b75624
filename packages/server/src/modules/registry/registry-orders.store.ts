import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { registrations, scheduledExams, type RegistrationRow, type ScheduledExamRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** SQL of the desk's orders and extension values (registry-orders.service.ts, registry-extensions.service.ts). */

/** The registration an external order made in the organization, if it was received before. */
export async function findRegistrationByOrderId(
  db: Db,
  bucketId: string,
  orderId: string,
): Promise<RegistrationRow | undefined> {
  const rows = await db
    .select()
    .from(registrations)
    .where(and(eq(registrations.bucketId, bucketId), eq(registrations.orderId, orderId)))
    .limit(1);
  return rows[0];
}

/**
 * GET registry/findbyorderid with a placing system's order id: the newest registration it made in
 * one of these organizations (the same id may come from two hospitals' systems).
 */
export async function findRegistrationByExternalOrder(
  db: Db,
  bucketIds: readonly string[],
  orderId: string,
): Promise<RegistrationRow | undefined> {
  if (bucketIds.length === 0) return undefined;
  const rows = await db
    .select()
    .from(registrations)
    .where(and(inArray(registrations.bucketId, [...bucketIds]), eq(registrations.orderId, orderId)))
    .orderBy(desc(registrations.created))
    .limit(1);
  return rows[0];
}

/**
 * Writes a scheduled exam's extension values while it has no exam yet (once it has one, the
 * exam's own extensions are the record); undefined when it got its exam in between.
 */
export async function setScheduledExtensions(
  db: Db,
  id: string,
  extensions: Record<string, string | number>,
  now: Date,
): Promise<ScheduledExamRow | undefined> {
  const [row] = await db
    .update(scheduledExams)
    .set({ extensions, updated: now })
    .where(and(eq(scheduledExams.id, id), isNull(scheduledExams.examId)))
    .returning();
  return row;
}
