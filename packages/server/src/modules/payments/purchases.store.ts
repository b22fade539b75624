import { count, desc, eq } from 'drizzle-orm';
import { buckets, orders, payments } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/**
 * Purchases that are not orders (top-ups, plan packages) and charge/request, the caller's own
 * charges. Plan changes lock the organization's row first, inside the settling transaction.
 */

/** A row of charge/request: the payment with its order's number and its organization's name. */
export interface OwnChargeRow {
  id: string;
  paymentNo: string;
  purpose: string;
  orderId: string | null;
  orderNo: string | null;
  packageId: string | null;
  groupId: string;
  bucketId: string | null;
  bucketName: string | null;
  amountFen: number;
  currency: string;
  refundedFen: number;
  channel: string;
  status: string;
  created: Date;
  paidAt: Date | null;
}

/** The payments `accountId` created, newest first (payments_created_by_idx). */
export async function ownCharges(
  db: Db,
  accountId: string,
  page: { limit: number; skip: number },
): Promise<{ rows: OwnChargeRow[]; count: number }> {
  const rows = await db
    .select({
      id: payments.id,
      paymentNo: payments.paymentNo,
      purpose: payments.purpose,
      orderId: payments.orderId,
      orderNo: orders.orderNo,
      packageId: payments.packageId,
      groupId: payments.groupId,
      bucketId: payments.bucketId,
      bucketName: buckets.name,
      amountFen: payments.amountFen,
      currency: payments.currency,
      refundedFen: payments.refundedFen,
      channel: payments.channel,
      status: payments.status,
      created: payments.created,
      paidAt: payments.paidAt,
    })
    .from(payments)
    .leftJoin(orders, eq(orders.id, payments.orderId))
    .leftJoin(buckets, eq(buckets.id, payments.bucketId))
    .where(eq(payments.createdBy, accountId))
    .orderBy(desc(payments.created), desc(payments.id))
    .limit(page.limit)
    .offset(page.skip);
  const [total] = await db.select({ n: count() }).from(payments).where(eq(payments.createdBy, accountId));
  return { rows, count: Number(total?.n ?? 0) };
}
