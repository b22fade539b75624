import type { ChargeCreated, ChargeDetail, ChargeStatus, PrePaidOrder } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, ledgerTxns, orders } from '../../db/schema.js';
import { makeMember, makeOrganization } from '../../test/factories.js';
import { updateDomainConfig } from '../domain/index.js';
import { entriesForOrder } from '../ledger/index.js';
import { makeOrder, startPayWorld, type PayWorld } from './payments.fixture.js';

/**
 * Paying an order by WeChat Native through the public /charge/{id} page (spec 001 §7, §8) against
 * the loopback simulator: apply-charge and its token, the QR, the notification settling it, the
 * manual paid-confirm, expiry and refresh, deleting an unpaid charge, and the requester's
 * request/{id} equivalents.
 */
let w: PayWorld;
beforeAll(async () => {
  w = await startPayWorld();
});
afterAll(async () => {
  const simulator = w.wechat.simulator!.baseUrl;
  await w.close();
  // The app closed the channel: the simulator is gone with it.
  await expect(fetch(simulator)).rejects.toThrow();
});

const charge = (token: string) => ({ authorization: `Charge ${token}` });
async function apply(orderId: string): Promise<ChargeCreated> {
  const res = await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ChargeCreated;
}
const get = (path: string, token: string) => w.t.call('GET', path, { headers: charge(token) });
const orderRow = async (id: string) => (await w.db.select().from(orders).where(eq(orders.id, id)))[0]!;

describe('charge/apply-charge', () => {
  it('opens a charge for the orderer and answers a token for its page; a second apply keeps it', async () => {
    const order = await makeOrder(w);
    const first = await apply(order.id);
    expect(first.token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(first.tokenExpires).toBe(Math.floor(w.t.clock.now().getTime() / 1000) + 7200);
    expect((await apply(order.id)).id).toBe(first.id);
    const detail = (await get(`charge/${first.id}/detail`, first.token)).json() as ChargeDetail;
    expect(detail).toMatchObject({
      id: first.id,
      orderId: order.id,
      orderNo: order.orderNo,
      amountFen: 12_000,
      currency: 'CNY',
      channel: 'weixin',
      status: 'pending',
      paymentStatus: 0,
      expertBucketName: '远程专家中心',
    });
    // The public page shows no patient.
    expect(JSON.stringify(detail)).not.toContain('王晓东');
  });

  it('refuses a member without the ordering action (NoPermissionToPay) and another group (404)', async () => {
    const order = await makeOrder(w);
    const res = await w.t.as(w.bystander.token).post('charge/apply-charge', { orderId: order.id });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'NoPermissionToPay' });
    const other = await makeOrganization(w.t);
    const stranger = await makeMember(w.t, other.bucketId, { level: 'admin', groupLevel: 1 });
    expect((await w.t.as(stranger.token).post('charge/apply-charge', { orderId: order.id })).statusCode).toBe(404);
    expect((await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: 'nope' })).statusCode).toBe(404);
    expect((await w.t.as(w.orderer.token).post('charge/apply-charge', {})).statusCode).toBe(400);
  });

  it('refuses a free order, a cancelled one, and any order while the payment service is off', async () => {
    const free = await makeOrder(w, { priceFen: 0 });
    const res = await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: free.id });
    expect([res.statusCode, res.json().code]).toEqual([409, 'Conflict']);
    const cancelled = await makeOrder(w);
    await w.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, cancelled.id));
    expect((await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: cancelled.id })).statusCode).toBe(409);
    const order = await makeOrder(w);
    await updateDomainConfig(w.db, { enablePaymentService: false }, w.t.clock.now());
    try {
      const off = await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: order.id });
      expect([off.statusCode, off.json().code]).toEqual([403, 'PaymentServiceDisabled']);
    } finally {
      await updateDomainConfig(w.db, { enablePaymentService: true }, w.t.clock.now());
    }
  });
});

describe('the public charge page', () => {
  it('needs its own token: none, a forged one or another charge’s is an invalid link', async () => {
    const a = await apply((await makeOrder(w)).id);
    const b = await apply((await makeOrder(w)).id);
    for (const headers of [{}, charge('x.y'), charge(b.token), { authorization: `Bearer ${w.orderer.token}` }]) {
      const res = await w.t.call('GET', `charge/${a.id}/payment-status`, { headers });
      expect([res.statusCode, res.json().code]).toEqual([403, 'LinkInvalid']);
    }
    w.t.clock.advance(121 * 60_000);
    try {
      expect((await get(`charge/${a.id}/detail`, a.token)).statusCode).toBe(403);
    } finally {
      w.t.clock.advance(-121 * 60_000);
    }
  });

  it('shows a WeChat QR, is settled by the notification once paid, and then refuses a new QR', async () => {
    const order = await makeOrder(w);
    const c = await apply(order.id);
    const qr = (await get(`charge/${c.id}/pre-paid-order`, c.token)).json() as PrePaidOrder;
    expect(qr).toMatchObject({ id: c.id, expired: false, amountFen: 12_000, currency: 'CNY' });
    expect(qr.codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(qr.simScanUrl).toBe(w.wechat.simulator!.scanUrl(qr.codeUrl!));
    expect(((await get(`charge/${c.id}/pre-paid-order`, c.token)).json() as PrePaidOrder).codeUrl).toBe(qr.codeUrl);
    const deliveries = await w.wechat.simulator!.pay(qr.codeUrl!);
    expect(deliveries.map((d) => d.status)).toEqual([200]);
    const status = (await get(`charge/${c.id}/payment-status`, c.token)).json() as ChargeStatus;
    expect(status).toMatchObject({ id: c.id, status: 'paid', paymentStatus: 1 });
    const row = await orderRow(order.id);
    expect([row.paymentStatus, row.channel, row.paidFen]).toEqual([1, 'weixin', 12_000]);
    expect(row.deadlineAt!.getTime() - row.paidAt!.getTime()).toBe(120 * 60_000);
    const lines = await entriesForOrder(w.db, order.id);
    expect(lines.map((l) => [l.account, l.amountFen])).toEqual(
      expect.arrayContaining([
        ['cash:weixin', 12_000],
        [`revenue:${w.experts.bucketId}`, -12_000],
      ]),
    );
    const again = await get(`charge/${c.id}/pre-paid-order`, c.token);
    expect([again.statusCode, again.json().code]).toEqual([409, 'OrderAlreadyPaid']);
    const applyAgain = await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: order.id });
    expect([applyAgain.statusCode, applyAgain.json().code]).toEqual([409, 'OrderAlreadyPaid']);
  });

  it('settles by paid-confirm when the notification never came', async () => {
    const order = await makeOrder(w);
    const c = await apply(order.id);
    const qr = (await get(`charge/${c.id}/pre-paid-order`, c.token)).json() as PrePaidOrder;
    const unpaid = await w.t.call('POST', `charge/${c.id}/paid-confirm`, { headers: charge(c.token) });
    expect((unpaid.json() as ChargeStatus).status).toBe('pending');
    w.wechat.simulator!.setNotifyOrigin('http://127.0.0.1:9');
    try {
      expect((await w.wechat.simulator!.pay(qr.codeUrl!)).map((d) => d.status)).toEqual([null]);
    } finally {
      w.wechat.simulator!.setNotifyOrigin(undefined);
    }
    expect((await orderRow(order.id)).paymentStatus).toBe(0);
    const res = await w.t.call('POST', `charge/${c.id}/paid-confirm`, { headers: charge(c.token) });
    expect(res.json()).toMatchObject({ status: 'paid', paymentStatus: 1 });
    const posted = await w.db
      .select()
      .from(ledgerTxns)
      .where(and(eq(ledgerTxns.kind, 'payment'), eq(ledgerTxns.ref, qr.paymentNo)));
    expect(posted).toHaveLength(1);
  });

  it('says when the QR expired and makes a new one (new out_trade_no) with refresh=1', async () => {
    const c = await apply((await makeOrder(w)).id);
    const first = (await get(`charge/${c.id}/pre-paid-order`, c.token)).json() as PrePaidOrder;
    w.t.clock.advance(31 * 60_000);
    const expired = (await get(`charge/${c.id}/pre-paid-order`, c.token)).json() as PrePaidOrder;
    expect(expired).toMatchObject({ expired: true, codeUrl: null, paymentNo: first.paymentNo });
    const fresh = (await get(`charge/${c.id}/pre-paid-order?refresh=1`, c.token)).json() as PrePaidOrder;
    expect(fresh.expired).toBe(false);
    expect(fresh.paymentNo).not.toBe(first.paymentNo);
    expect(fresh.codeUrl).not.toBe(first.codeUrl);
    expect(w.wechat.simulator!.order(first.paymentNo)?.state).toBe('CLOSED');
    expect((await w.wechat.simulator!.pay(fresh.codeUrl!)).map((d) => d.status)).toEqual([200]);
    expect(((await get(`charge/${c.id}/payment-status`, c.token)).json() as ChargeStatus).status).toBe('paid');
  });

  it('deletes an unpaid charge (closed at WeChat too) and refuses to delete a paid one', async () => {
    const c = await apply((await makeOrder(w)).id);
    const qr = (await get(`charge/${c.id}/pre-paid-order`, c.token)).json() as PrePaidOrder;
    const del = await w.t.call('DELETE', `charge/${c.id}/delete`, { headers: charge(c.token) });
    expect(del.statusCode).toBe(204);
    expect(((await get(`charge/${c.id}/payment-status`, c.token)).json() as ChargeStatus).status).toBe('closed');
    expect(w.wechat.simulator!.order(qr.paymentNo)?.state).toBe('CLOSED');
    const paid = await apply((await makeOrder(w)).id);
    const paidQr = (await get(`charge/${paid.id}/pre-paid-order`, paid.token)).json() as PrePaidOrder;
    await w.wechat.simulator!.pay(paidQr.codeUrl!);
    const refused = await w.t.call('DELETE', `charge/${paid.id}/delete`, { headers: charge(paid.token) });
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'OrderAlreadyPaid']);
    const audits = await w.db.select().from(auditLogs).where(eq(auditLogs.action, 'payment.charge_closed'));
    expect(audits.map((a) => a.targetId)).toContain(qr.paymentNo);
  });
});

describe('request/{id}: the signed-in requester on the order', () => {
  it('answers no charge yet, then the QR, and the paid status after paid-confirm', async () => {
    const order = await makeOrder(w, { type: 'remote' });
    const as = w.t.as(w.orderer.token);
    expect((await as.get(`request/${order.id}/payment-status`)).json()).toEqual({
      id: null,
      paymentNo: null,
      status: null,
      paymentStatus: 0,
      paidAt: null,
    });
    const qr = (await as.get(`request/${order.id}/pre-paid-order`)).json() as PrePaidOrder;
    expect(qr.codeUrl).toMatch(/^weixin:/);
    w.wechat.simulator!.setNotifyOrigin('http://127.0.0.1:9');
    try {
      await w.wechat.simulator!.pay(qr.codeUrl!);
    } finally {
      w.wechat.simulator!.setNotifyOrigin(undefined);
    }
    expect((await as.post(`request/${order.id}/paid-confirm`)).json()).toMatchObject({
      id: qr.id,
      status: 'paid',
      paymentStatus: 1,
    });
    expect((await as.get(`request/${order.id}/payment-status`)).json()).toMatchObject({ status: 'paid' });
  });

  it('refuses a member without the ordering action and another group', async () => {
    const order = await makeOrder(w);
    const res = await w.t.as(w.bystander.token).get(`request/${order.id}/pre-paid-order`);
    expect([res.statusCode, res.json().code]).toEqual([403, 'NoPermissionToPay']);
    const other = await makeOrganization(w.t);
    const stranger = await makeMember(w.t, other.bucketId, { level: 'admin', groupLevel: 1 });
    expect((await w.t.as(stranger.token).get(`request/${order.id}/payment-status`)).statusCode).toBe(404);
  });
});
