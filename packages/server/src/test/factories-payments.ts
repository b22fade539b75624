import { payments } from '../db/schema.js';
import type { TestApp } from './harness.js';

/**
 * A paid WeChat payment of an order, written directly (for the all-routes tenant-isolation matrix):
 * charge/:id is its id, payments/:no its payment no.
 */
export async function insertPaymentRows(
  t: TestApp,
  o: { orderId: string; groupId: string; bucketId: string },
): Promise<{ chargeId: string; no: string }> {
  const chargeId = 'payment-fixture';
  const no = 'YPFIXTURE00000000000000001';
  const now = t.clock.now();
  await t.db.database.db.insert(payments).values({
    id: chargeId,
    paymentNo: no,
    orderId: o.orderId,
    groupId: o.groupId,
    bucketId: o.bucketId,
    channel: 'weixin',
    amountFen: 100,
    status: 'paid',
    transactionId: '4200000000FIXTURE',
    paidAt: now,
    created: now,
  });
  return { chargeId, no };
}
