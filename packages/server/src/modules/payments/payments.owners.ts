// The payments module's ownership look-ups for route auth: the expert organization a payment was
// paid to (payments/{no}/refund). Orders' look-ups come from the orders face.
import type { Db } from '../../platform/db.js';
import { targetOfOrder } from '../orders/index.js';
import { paymentByNo } from './payments.store.js';

/**
 * The organization paid by the payment with this no (its order's expert organization). A plan
 * package's payment names the organization it was bought for (its refund is refused there,
 * PaymentNotRefundable); a top-up names none (404).
 */
export async function expertOfPayment(db: Db, paymentNo: string): Promise<string | undefined> {
  const row = await paymentByNo(db, paymentNo);
  if (row?.purpose === 'plan') return row.bucketId ?? undefined;
  return row?.orderId ? targetOfOrder(db, row.orderId) : undefined;
}
