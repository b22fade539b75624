import { PAYMENT_STATUS } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, products } from '../../db/schema.js';
import { makeExam, makeOrganization, unique } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { orderForPayment, ownerOfOrder, recordOrderPaid, recordOrderRefund, targetOfOrder } from './index.js';

/**
 * The orders face the payments module uses (billing-interfaces.md): an order as payments see it,
 * marking it paid (the turnaround clock starts) and refunded, and the owners for route auth.
 */
let t: TestApp;
let orderId: string;
let noTurnaroundId: string;
let clinic: { bucketId: string; groupId: string };
let experts: { bucketId: string };
const db = () => t.db.database.db;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  clinic = await makeOrganization(t, { name: '县医院放射科' });
  experts = await makeOrganization(t, { name: '远程专家中心' });
  const productId = unique('prd-');
  await db().insert(products).values({
    id: productId,
    bucketId: experts.bucketId,
    type: 1,
    name: 'CT 专家读片',
    priceFen: 12_000,
    turnaroundMinutes: 120,
    breachCreditBp: 2000,
  });
  const insert = async (examId: string, product: string | null) => {
    const id = unique('ord-');
    await db()
      .insert(orders)
      .values({
        id,
        orderNo: unique('NO'),
        type: 'expert',
        groupId: clinic.groupId,
        requestBucketId: clinic.bucketId,
        targetBucketId: experts.bucketId,
        examId,
        productId: product,
        productName: 'CT 专家读片',
        priceFen: 12_000,
      });
    return id;
  };
  orderId = await insert((await makeExam(t, clinic.bucketId)).examId, productId);
  noTurnaroundId = await insert((await makeExam(t, clinic.bucketId)).examId, null);
});
afterAll(async () => {
  await t.close();
});

describe('the orders face for payments', () => {
  it('answers the order as payments see it, and null for none', async () => {
    const o = await orderForPayment(db(), orderId);
    expect(o).toMatchObject({
      id: orderId,
      type: 'expert',
      groupId: clinic.groupId,
      requestBucketId: clinic.bucketId,
      targetBucketId: experts.bucketId,
      priceFen: 12_000,
      currency: 'CNY',
      status: 'applied',
      paymentStatus: PAYMENT_STATUS.unpaid,
      channel: null,
      paidFen: 0,
      refundedFen: 0,
      version: 1,
    });
    expect(await orderForPayment(db(), 'nope')).toBeNull();
  });

  it('names the requesting organization and the expert organization of an order', async () => {
    expect(await ownerOfOrder(db(), orderId)).toBe(clinic.bucketId);
    expect(await targetOfOrder(db(), orderId)).toBe(experts.bucketId);
    expect(await ownerOfOrder(db(), 'nope')).toBeUndefined();
  });

  it('records a payment and starts the turnaround clock (none without a promised turnaround)', async () => {
    const paidAt = new Date('2026-11-27T08:00:00Z');
    await recordOrderPaid(db(), orderId, { channel: 'weixin', paidFen: 12_000, paidAt });
    const o = await orderForPayment(db(), orderId);
    expect(o).toMatchObject({ paymentStatus: 1, channel: 'weixin', paidFen: 12_000, version: 2 });
    const [row] = await db().select().from(orders).where(eqId(orderId));
    expect(row!.paidAt?.toISOString()).toBe(paidAt.toISOString());
    expect(row!.deadlineAt?.toISOString()).toBe('2026-11-27T10:00:00.000Z');
    await recordOrderPaid(db(), noTurnaroundId, { channel: 'credit', paidFen: 12_000, paidAt });
    const [other] = await db().select().from(orders).where(eqId(noTurnaroundId));
    expect(other!.deadlineAt).toBeNull();
    expect(other!.channel).toBe('credit');
  });

  it('records refunds: refunding while pending, partly refunded, then refunded', async () => {
    await recordOrderRefund(db(), orderId, { refundedFen: 0, pending: true });
    expect((await orderForPayment(db(), orderId))!.paymentStatus).toBe(PAYMENT_STATUS.refunding);
    await recordOrderRefund(db(), orderId, { refundedFen: 5000, pending: false });
    expect(await orderForPayment(db(), orderId)).toMatchObject({ paymentStatus: 4, refundedFen: 5000 });
    await recordOrderRefund(db(), orderId, { refundedFen: 12_000, pending: false });
    expect(await orderForPayment(db(), orderId)).toMatchObject({ paymentStatus: 3, refundedFen: 12_000 });
  });
});

function eqId(id: string) {
  return eq(orders.id, id);
}
