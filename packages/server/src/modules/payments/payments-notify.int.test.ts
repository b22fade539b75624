import type { ChargeCreated, PrePaidOrder } from '@yyp/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, ledgerTxns, orders, payments } from '../../db/schema.js';
import { makeOrder, startPayWorld, type PayWorld } from './payments.fixture.js';

/**
 * Settlement exactly once (billing-interfaces.md "Payments"; issue 24 "Concurrency on PostgreSQL"):
 * WeChat's notification delivered five times at once changes the payment once and posts once;
 * paid-confirm racing the notification likewise; a notification with a wrong signature, serial,
 * timestamp, ciphertext or amount is refused (400), audited, and changes nothing. On PostgreSQL the
 * deliveries are real parallel requests on a pool; on PGlite they run one by one.
 */
let w: PayWorld;
beforeAll(async () => {
  w = await startPayWorld();
});
afterAll(async () => {
  await w.close();
});

const sim = () => w.wechat.simulator!;

/** An order with its QR, paid at the simulator while its notification could not reach us. */
async function paidUnnotified(): Promise<{ orderId: string; charge: ChargeCreated; qr: PrePaidOrder }> {
  const order = await makeOrder(w);
  const res = await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: order.id });
  const charge = res.json() as ChargeCreated;
  const qr = (
    await w.t.call('GET', `charge/${charge.id}/pre-paid-order`, {
      headers: { authorization: `Charge ${charge.token}` },
    })
  ).json() as PrePaidOrder;
  sim().setNotifyOrigin('http://127.0.0.1:9');
  try {
    expect((await sim().pay(qr.codeUrl!)).map((d) => d.status)).toEqual([null]);
  } finally {
    sim().setNotifyOrigin(undefined);
  }
  return { orderId: order.id, charge, qr };
}

async function postings(paymentNo: string) {
  return w.db
    .select()
    .from(ledgerTxns)
    .where(and(eq(ledgerTxns.kind, 'payment'), eq(ledgerTxns.ref, paymentNo)));
}
async function audits(action: string, targetId?: string) {
  const rows = await w.db.select().from(auditLogs).where(eq(auditLogs.action, action));
  return targetId ? rows.filter((r) => r.targetId === targetId) : rows;
}

describe('the same notification delivered at once', () => {
  it('five deliveries: all acknowledged, one state change, one posting, one audit row', async () => {
    const { orderId, qr } = await paidUnnotified();
    const deliveries = await sim().notifyTransaction(qr.paymentNo, { times: 5 });
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await postings(qr.paymentNo)).toHaveLength(1);
    expect(await audits('payment.paid', qr.paymentNo)).toHaveLength(1);
    const [row] = await w.db.select().from(payments).where(eq(payments.paymentNo, qr.paymentNo));
    expect([row!.status, row!.transactionId]).toEqual(['paid', sim().order(qr.paymentNo)!.transactionId]);
    const [order] = await w.db.select().from(orders).where(eq(orders.id, orderId));
    expect([order!.paymentStatus, order!.paidFen, order!.version]).toEqual([1, 12_000, 2]);
  });

  it('paid-confirm racing three notifications settles once', async () => {
    const { charge, qr } = await paidUnnotified();
    const confirm = () =>
      fetch(`${w.base}/yyp/api/v1/charge/${charge.id}/paid-confirm`, {
        method: 'POST',
        headers: { authorization: `Charge ${charge.token}` },
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { status: string } }));
    const [a, b, notes] = await Promise.all([
      confirm(),
      confirm(),
      sim().notifyTransaction(qr.paymentNo, { times: 3 }),
    ]);
    expect([a.status, a.body.status, b.status, b.body.status]).toEqual([200, 'paid', 200, 'paid']);
    expect(notes.map((d) => d.status)).toEqual([200, 200, 200]);
    expect(await postings(qr.paymentNo)).toHaveLength(1);
    expect(await audits('payment.paid', qr.paymentNo)).toHaveLength(1);
  });
});

describe('notifications that do not verify or do not match', () => {
  it.each(['signature', 'serial', 'timestamp', 'ciphertext', 'amount'] as const)(
    'a %s spoilt: 400, audited, nothing changed',
    async (tamper) => {
      const { orderId, qr } = await paidUnnotified();
      const before = (await audits('payment.notification_refused')).length;
      const [delivery] = await sim().notifyTransaction(qr.paymentNo, { tamper });
      expect(delivery!.status).toBe(400);
      const refused = await audits('payment.notification_refused');
      expect(refused).toHaveLength(before + 1);
      expect(refused.at(-1)!.outcome).toBe('denied');
      expect(refused.at(-1)!.details).toMatchObject({
        kind: 'payment',
        reason: tamper === 'amount' ? 'amount' : 'unverified',
      });
      expect(await postings(qr.paymentNo)).toHaveLength(0);
      const [order] = await w.db.select().from(orders).where(eq(orders.id, orderId));
      expect(order!.paymentStatus).toBe(0);
      // The genuine one still settles.
      expect((await sim().notifyTransaction(qr.paymentNo)).map((d) => d.status)).toEqual([200]);
      expect(await postings(qr.paymentNo)).toHaveLength(1);
    },
  );

  it('refuses a body that is no notification, and an unknown trade, without a 500', async () => {
    const res = await w.t.call('POST', 'payments/weixin/notify', {
      headers: { 'content-type': 'application/json' },
      body: '{"id":"x"}',
    });
    expect([res.statusCode, res.json().code]).toEqual([400, 'PaymentNotificationInvalid']);
    const text = await w.t.call('POST', 'payments/weixin/refund-notify', {
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(text.statusCode).toBe(400);
    const details = (await audits('payment.notification_refused')).slice(-2).map((a) => a.details);
    expect(details).toEqual([
      expect.objectContaining({ kind: 'payment', reason: 'unverified' }),
      expect.objectContaining({ kind: 'refund', reason: 'unverified' }),
    ]);
  });

  it('refuses a verified notification of a trade that is not ours, audited', async () => {
    const outTradeNo = 'YPNOTOURS0000000000000001';
    const { codeUrl } = await w.wechat.provider!.createNativeOrder({
      outTradeNo,
      description: '别处的订单',
      amountFen: 100,
      currency: 'CNY',
      notifyUrl: `${w.base}/yyp/api/v1/payments/weixin/notify`,
      expiresAt: new Date(w.t.clock.now().getTime() + 600_000),
    });
    expect((await sim().pay(codeUrl)).map((d) => d.status)).toEqual([400]);
    expect((await audits('payment.notification_refused')).at(-1)!.details).toMatchObject({
      kind: 'payment',
      reason: 'unknown',
      outTradeNo,
    });
    expect(await postings(outTradeNo)).toHaveLength(0);
  });

  it('never writes a secret or the raw body into the audit trail', async () => {
    const rows = await w.db
      .select()
      .from(auditLogs)
      .where(inArray(auditLogs.action, ['payment.notification_refused', 'payment.paid']));
    const text = JSON.stringify(rows);
    expect(text).not.toContain('ciphertext');
    expect(text).not.toContain('associated_data');
    expect(text).not.toMatch(/BEGIN (RSA )?PRIVATE KEY/);
  });
});
