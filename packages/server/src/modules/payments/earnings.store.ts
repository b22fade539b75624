import { eq, inArray } from 'drizzle-orm';
import { buckets, orders } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** What an earnings line shows of its order: its number, product and the organization that ordered it. */
export async function orderLabels(db: Db, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return db
    .select({
      id: orders.id,
      orderNo: orders.orderNo,
      productName: orders.productName,
      targetBucketId: orders.targetBucketId,
      requestBucketName: buckets.name,
    })
    .from(orders)
    .leftJoin(buckets, eq(buckets.id, orders.requestBucketId))
    .where(inArray(orders.id, orderIds));
}
