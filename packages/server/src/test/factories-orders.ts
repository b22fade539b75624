import { orders, products } from '../db/schema.js';
import type { TestApp } from './harness.js';

// Orders rows for tests that need them without the marketplace's calls (issue 24).
/**
 * A product and an order of an organization, written directly (for the all-routes tenant-isolation
 * matrix): the organization sells the product and applied for the order of its exam, to itself.
 */
export async function insertOrderRows(
  t: TestApp,
  bucketId: string,
  groupId: string,
  examId: string,
): Promise<{ productId: string; orderId: string }> {
  const db = t.db.database.db;
  const productId = 'product-fixture';
  const orderId = 'order-fixture';
  await db.insert(products).values({ id: productId, bucketId, name: '甲城 CT 读片', priceFen: 100 });
  await db.insert(orders).values({
    id: orderId,
    orderNo: 'R-FIXTURE-1',
    type: 'expert',
    groupId,
    requestBucketId: bucketId,
    targetBucketId: bucketId,
    examId,
    productId,
    productName: '甲城 CT 读片',
    priceFen: 100,
    patientName: 'Secret^Patient',
  });
  return { productId, orderId };
}
