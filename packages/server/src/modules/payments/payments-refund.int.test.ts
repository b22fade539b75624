import type { ChargeCreated, CreditChargeResult, PrePaidOrder, Refund } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, ledgerTxns, orders, payments } from '../../db/schema.js';
import { makeMember } from '../../test/factories.js';
import { updateDomainConfig } from '../domain/index.js';
import { groupCreditBalance } from '../ledger/index.js';
import {
  creditToken,
  makeOrder,
  paidByWeixin as paidBy,
  startPayWorld,
  topUp,
  type PayWorld,
} from './payments.fixture.js';

const paidByWeixin = () => paidBy(w);

/**
 * The balance channel (credits/charge) and refunds (payments/{no}/refund): exact to the fen, never
 * overdrawn, never refunded beyond what was paid, even when two requests come at once (real
 * parallel requests; on PostgreSQL they overlap and the locks order them).
 */
let w: PayWorld;
beforeAll(async () => {
  w = await startPayWorld();
});
afterAll(async () => {
  await w.close();
});

const sim = () => w.wechat.simulator!;
const balance = () => groupCreditBalance(w.db, w.clinic.groupId, 'CNY');
const orderOf = async (id: string) => (await w.db.select().from(orders).where(eq(orders.id, id)))[0]!;

function creditCharge(orderId: string, token: string | null, as = w.orderer.token) {
  return fetch(`${w.base}/yyp/api/v1/credits/charge`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${as}`,
      'content-type': 'application/json',
      ...(token ? { 'charge-authorization': `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ orderId }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as CreditChargeResult & { code?: string } }));
}

function refund(no: string, body: unknown, key: string | null, as = w.admin.token) {
  return fetch(`${w.base}/yyp/api/v1/payments/${no}/refund`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${as}`,
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Refund & { code?: string } }));
}

const refundTxns = async (orderId: string) =>
  w.db
    .select()
    .from(ledgerTxns)
    .where(and(eq(ledgerTxns.kind, 'refund'), eq(ledgerTxns.orderId, orderId)));

describe('credits/charge', () => {
  it('pays an order from the group balance with the bearer, once', async () => {
    await topUp(w, 20_000);
    const start = await balance();
    const order = await makeOrder(w);
    const token = await creditToken(w, order.id, 12_000);
    const res = await creditCharge(order.id, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      orderId: order.id,
      amountFen: 12_000,
      currency: 'CNY',
      balanceFen: start - 12_000,
    });
    expect(await balance()).toBe(start - 12_000);
    const row = await orderOf(order.id);
    expect([row.paymentStatus, row.channel, row.paidFen]).toEqual([1, 'credit', 12_000]);
    const again = await creditCharge(order.id, token);
    expect([again.status, again.body.code]).toEqual([409, 'OrderAlreadyPaid']);
  });

  it('refuses when short (InsufficientCredit) and keeps the bearer unused for after a top-up', async () => {
    const order = await makeOrder(w, { priceFen: (await balance()) + 1 });
    const token = await creditToken(w, order.id, (await balance()) + 1);
    const short = await creditCharge(order.id, token);
    expect([short.status, short.body.code]).toEqual([409, 'InsufficientCredit']);
    expect((await orderOf(order.id)).paymentStatus).toBe(0);
    await topUp(w, 1);
    expect((await creditCharge(order.id, token)).status).toBe(200);
    expect(await balance()).toBe(0);
  });

  it('refuses no bearer, another order’s, another amount’s, and a member without the ordering action', async () => {
    await topUp(w, 50_000);
    const order = await makeOrder(w);
    const other = await makeOrder(w);
    for (const [token, code] of [
      [null, 'NoPermissionToPay'],
      [await creditToken(w, other.id, 12_000), 'NoPermissionToPay'],
      [await creditToken(w, order.id, 11_999), 'NoPermissionToPay'],
    ] as const) {
      const res = await creditCharge(order.id, token);
      expect([res.status, res.body.code]).toEqual([403, code]);
    }
    const res = await creditCharge(order.id, await creditToken(w, order.id, 12_000), w.bystander.token);
    expect([res.status, res.body.code]).toEqual([403, 'NoPermissionToPay']);
    expect((await orderOf(order.id)).paymentStatus).toBe(0);
  });

  it('refuses a free order and any order while the payment service is off', async () => {
    await topUp(w, 12_000);
    const free = await makeOrder(w, { priceFen: 0 });
    expect((await creditCharge(free.id, await creditToken(w, free.id, 1))).body.code).toBe('Conflict');
    const order = await makeOrder(w);
    await updateDomainConfig(w.db, { enablePaymentService: false }, w.t.clock.now());
    try {
      const off = await creditCharge(order.id, await creditToken(w, order.id, 12_000));
      expect([off.status, off.body.code]).toEqual([403, 'PaymentServiceDisabled']);
    } finally {
      await updateDomainConfig(w.db, { enablePaymentService: true }, w.t.clock.now());
    }
  });

  it('two spends at once never overdraw: enough for one, one is refused', async () => {
    const drain = await balance();
    if (drain > 0) {
      const sink = await makeOrder(w, { priceFen: drain });
      expect((await creditCharge(sink.id, await creditToken(w, sink.id, drain))).status).toBe(200);
    }
    await topUp(w, 15_000);
    const a = await makeOrder(w);
    const b = await makeOrder(w);
    const [ta, tb] = [await creditToken(w, a.id, 12_000), await creditToken(w, b.id, 12_000)];
    const results = await Promise.all([creditCharge(a.id, ta), creditCharge(b.id, tb)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('InsufficientCredit');
    expect(await balance()).toBe(3_000);
  });

  it("closes the order's open WeChat charge when the balance pays it", async () => {
    await topUp(w, 12_000);
    const order = await makeOrder(w);
    const charge = (
      await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: order.id })
    ).json() as ChargeCreated;
    const qr = (
      await w.t.call('GET', `charge/${charge.id}/pre-paid-order`, {
        headers: { authorization: `Charge ${charge.token}` },
      })
    ).json() as PrePaidOrder;
    expect((await creditCharge(order.id, await creditToken(w, order.id, 12_000))).status).toBe(200);
    const [row] = await w.db.select().from(payments).where(eq(payments.id, charge.id));
    expect(row!.status).toBe('closed');
    expect(sim().order(qr.paymentNo)!.state).toBe('CLOSED');
  });
});

describe('payments/{no}/refund', () => {
  it('refunds part (4), then the rest (3), posting each once; never more than was paid', async () => {
    const { orderId, paymentNo } = await paidByWeixin();
    const first = await refund(paymentNo, { amountFen: 5_000, reason: '部分退款' }, 'refund-part-0001');
    expect(first.status).toBe(201);
    await sim().whenIdle();
    expect([(await orderOf(orderId)).paymentStatus, (await orderOf(orderId)).refundedFen]).toEqual([4, 5_000]);
    const replay = await refund(paymentNo, { amountFen: 5_000, reason: '部分退款' }, 'refund-part-0001');
    expect([replay.status, replay.body.refundNo]).toEqual([201, first.body.refundNo]);
    const reused = await refund(paymentNo, { amountFen: 4_000, reason: '部分退款' }, 'refund-part-0001');
    expect([reused.status, reused.body.code]).toEqual([409, 'IdempotencyKeyReused']);
    const over = await refund(paymentNo, { amountFen: 7_001, reason: '超额' }, 'refund-over-0001');
    expect([over.status, over.body.code]).toEqual([409, 'RefundExceedsPaid']);
    const rest = await refund(paymentNo, { amountFen: 7_000, reason: '余额' }, 'refund-rest-0001');
    expect(rest.status).toBe(201);
    await sim().whenIdle();
    const order = await orderOf(orderId);
    expect([order.paymentStatus, order.refundedFen]).toEqual([3, 12_000]);
    expect((await refundTxns(orderId)).length).toBe(2);
    expect(sim().order(paymentNo)!.state).toBe('REFUND');
  });

  it('two refunds at once never add up to more than was paid', async () => {
    const { orderId, paymentNo } = await paidByWeixin();
    const results = await Promise.all([
      refund(paymentNo, { amountFen: 8_000, reason: 'a' }, 'race-a-000001'),
      refund(paymentNo, { amountFen: 8_000, reason: 'b' }, 'race-b-000001'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    await sim().whenIdle();
    expect((await orderOf(orderId)).refundedFen).toBe(8_000);
    expect(await refundTxns(orderId)).toHaveLength(1);
  });

  it('is refunding (2) while WeChat processes it, and its notification finishes it once', async () => {
    const { orderId, paymentNo } = await paidByWeixin();
    sim().setRefundDelayMs(60_000);
    let pending: Refund;
    try {
      const res = await refund(paymentNo, { amountFen: 12_000, reason: '全额' }, 'refund-slow-0001');
      expect([res.status, res.body.status, res.body.paymentStatus]).toEqual([201, 'processing', 2]);
      pending = res.body;
    } finally {
      sim().setRefundDelayMs(0);
    }
    expect((await orderOf(orderId)).paymentStatus).toBe(2);
    const [left] = await Promise.all([refund(paymentNo, { amountFen: 1, reason: 'x' }, 'refund-more-0001')]);
    expect(left.body.code).toBe('RefundExceedsPaid');
    // WeChat finishes it while we cannot be reached; a spoilt copy then changes nothing.
    sim().setNotifyOrigin('http://127.0.0.1:9');
    try {
      expect((await sim().settleRefund(pending.refundNo)).map((d) => d.status)).toEqual([null]);
    } finally {
      sim().setNotifyOrigin(undefined);
    }
    expect((await orderOf(orderId)).paymentStatus).toBe(2);
    const spoilt = await sim().notifyRefund(pending.refundNo, { tamper: 'signature' });
    expect(spoilt.map((d) => d.status)).toEqual([400]);
    expect((await orderOf(orderId)).paymentStatus).toBe(2);
    expect((await sim().notifyRefund(pending.refundNo, { times: 3 })).map((d) => d.status)).toEqual([200, 200, 200]);
    expect([(await orderOf(orderId)).paymentStatus, (await orderOf(orderId)).refundedFen]).toEqual([3, 12_000]);
    expect(await refundTxns(orderId)).toHaveLength(1);
  });

  it('asks WeChat about a refund whose notification never came before taking the next', async () => {
    const { orderId, paymentNo } = await paidByWeixin();
    sim().setRefundDelayMs(60_000);
    const asked = refund(paymentNo, { amountFen: 12_000, reason: '全额' }, 'refund-lost-0001');
    const { refundNo } = (await asked.finally(() => sim().setRefundDelayMs(0))).body;
    sim().setNotifyOrigin('http://127.0.0.1:9');
    try {
      expect((await sim().settleRefund(refundNo)).map((d) => d.status)).toEqual([null]);
    } finally {
      sim().setNotifyOrigin(undefined);
    }
    expect((await orderOf(orderId)).paymentStatus).toBe(2);
    const next = await refund(paymentNo, { amountFen: 1, reason: '再退' }, 'refund-next-0001');
    expect([next.status, next.body.code]).toEqual([409, 'RefundExceedsPaid']);
    expect([(await orderOf(orderId)).paymentStatus, (await orderOf(orderId)).refundedFen]).toEqual([3, 12_000]);
    expect(await refundTxns(orderId)).toHaveLength(1);
  });

  it('gives a credit payment back to the balance at once', async () => {
    await topUp(w, 12_000);
    const order = await makeOrder(w);
    const paid = await creditCharge(order.id, await creditToken(w, order.id, 12_000));
    const before = await balance();
    const res = await refund(paid.body.paymentNo, { amountFen: 2_000, reason: '超时' }, 'refund-credit-01');
    expect([res.status, res.body.status, res.body.paymentStatus]).toEqual([201, 'success', 4]);
    expect(await balance()).toBe(before + 2_000);
  });

  it('is for the order admins of the organization paid: others 404 or 403; a key is required', async () => {
    const { paymentNo } = await paidByWeixin();
    const body = { amountFen: 100, reason: 'x' };
    expect((await refund(paymentNo, body, 'refund-auth-0001', w.orderer.token)).status).toBe(404);
    const plain = await makeMember(w.t, w.experts.bucketId, { actions: ['exam_get'] });
    expect((await refund(paymentNo, body, 'refund-auth-0001', plain.token)).status).toBe(403);
    const noKey = await refund(paymentNo, body, null);
    expect([noKey.status, noKey.body.code]).toEqual([400, 'ValidationError']);
    expect((await refund('YP-none', body, 'refund-auth-0001')).status).toBe(404);
    const rows = await w.db.select().from(auditLogs).where(eq(auditLogs.action, 'payment.refund_requested'));
    expect(rows.length).toBeGreaterThan(0);
  });
});
