import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Received } from '../../sim/wechatpay/receiver.fixture.js';
import {
  startWechatPay,
  wechatPaySettings,
  WechatPayChannelError,
  WechatPayNotificationError,
  type WechatPayProvider,
  type WechatPayRuntime,
  type WechatPaySimulator,
} from './index.js';

/**
 * The adapter against the simulator over real HTTP on loopback: a Native order from creation to
 * the verified, decrypted TRANSACTION.SUCCESS notification, and every spoilt notification refused.
 */

let runtime: WechatPayRuntime;
let provider: WechatPayProvider;
let sim: WechatPaySimulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const newNo = () => `T${Date.now()}${randomBytes(4).toString('hex')}`;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

beforeAll(async () => {
  receiver = await startReceiver();
  runtime = await startWechatPay(wechatPaySettings({}), { refundDelayMs: 0, retryDelaysMs: [] });
  if (!runtime.provider || !runtime.simulator) throw new Error('sim mode makes a provider and a simulator');
  provider = runtime.provider;
  sim = runtime.simulator;
});

afterAll(async () => {
  await runtime.close();
  await receiver.close();
});

async function order(amountFen = 1250, currency: 'CNY' | 'USD' = 'CNY') {
  const outTradeNo = newNo();
  const { codeUrl } = await provider.createNativeOrder({
    outTradeNo,
    description: '专家阅片 CT 胸部',
    amountFen,
    currency,
    notifyUrl: `${receiver.origin}/yyp/api/v1/payments/weixin/notify`,
    expiresAt: inMinutes(30),
  });
  return { outTradeNo, codeUrl };
}

function lastFor(outTradeNo: string, count = 1): Received[] {
  const mine = receiver.received.filter((r) => {
    try {
      const n = provider.parseNotification(r.headers, r.body);
      return n.eventType === 'TRANSACTION.SUCCESS' && n.transaction.outTradeNo === outTradeNo;
    } catch {
      return false;
    }
  });
  expect(mine.length).toBe(count);
  return mine;
}

describe('WeChat Pay Native through the simulator', () => {
  it('creates an order, shows NOTPAY, is paid on the scan page, notifies, and then shows SUCCESS', async () => {
    const { outTradeNo, codeUrl } = await order(1250);
    expect(codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=[\w-]+$/);
    expect(await provider.queryOrder(outTradeNo)).toEqual({
      tradeState: 'NOTPAY',
      transactionId: undefined,
      amountFen: 1250,
      currency: 'CNY',
      successTime: undefined,
    });

    const page = await fetch(sim.scanUrl(codeUrl));
    const html = await page.text();
    expect(html).toContain('¥12.50');
    expect(html).toContain('专家阅片 CT 胸部');
    const paid = await fetch(`${sim.baseUrl}/sim/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code_url: codeUrl }).toString(),
    });
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('sim-paid');

    const [delivered] = lastFor(outTradeNo);
    expect(delivered?.path).toBe('/yyp/api/v1/payments/weixin/notify');
    expect(delivered?.headers['wechatpay-serial']).toBe(sim.platformSerial);
    const n = provider.parseNotification(delivered?.headers ?? {}, delivered?.body ?? '');
    if (n.eventType !== 'TRANSACTION.SUCCESS') throw new Error('a transaction notification');
    expect(n.transaction).toMatchObject({ outTradeNo, tradeState: 'SUCCESS', amountFen: 1250, currency: 'CNY' });
    expect(n.transaction.transactionId).toMatch(/^4200\d{28}$/);

    const q = await provider.queryOrder(outTradeNo);
    expect(q.tradeState).toBe('SUCCESS');
    expect(q.transactionId).toBe(n.transaction.transactionId);
    expect(q.successTime?.getTime()).toBe(n.transaction.successTime.getTime());
    // A paid order can be neither paid again nor closed.
    await expect(sim.pay(codeUrl)).rejects.toThrow(/已支付/);
    await expect(provider.closeOrder(outTradeNo)).rejects.toMatchObject({ status: 400, code: 'ORDERPAID' });
  });

  it('keeps USD amounts in cents with their currency', async () => {
    const { outTradeNo } = await order(999, 'USD');
    await sim.pay(outTradeNo);
    const n = provider.parseNotification(lastFor(outTradeNo)[0]?.headers ?? {}, lastFor(outTradeNo)[0]?.body ?? '');
    expect(n.eventType === 'TRANSACTION.SUCCESS' && n.transaction).toMatchObject({ amountFen: 999, currency: 'USD' });
    expect(await provider.queryOrder(outTradeNo)).toMatchObject({ amountFen: 999, currency: 'USD' });
  });

  it('answers a retried creation with the same code_url and refuses another order under the number', async () => {
    const { outTradeNo, codeUrl } = await order(500);
    const again = await provider.createNativeOrder({
      outTradeNo,
      description: '专家阅片 CT 胸部',
      amountFen: 500,
      currency: 'CNY',
      notifyUrl: `${receiver.origin}/n`,
      expiresAt: inMinutes(30),
    });
    expect(again.codeUrl).toBe(codeUrl);
    const other = provider.createNativeOrder({
      outTradeNo,
      description: '专家阅片 CT 胸部',
      amountFen: 600,
      currency: 'CNY',
      notifyUrl: `${receiver.origin}/n`,
      expiresAt: inMinutes(30),
    });
    await expect(other).rejects.toBeInstanceOf(WechatPayChannelError);
    await expect(other).rejects.toMatchObject({ status: 403, code: 'OUT_TRADE_NO_USED' });
  });

  it('closes an unpaid order, which can then not be paid', async () => {
    const { outTradeNo, codeUrl } = await order();
    await provider.closeOrder(outTradeNo);
    expect((await provider.queryOrder(outTradeNo)).tradeState).toBe('CLOSED');
    const paid = await fetch(`${sim.baseUrl}/sim/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code_url: codeUrl }),
    });
    expect(paid.status).toBe(400);
    expect(await paid.text()).toContain('订单已关闭');
  });

  it('answers what it cannot read with 4xx: an unknown code_url, a body that is not JSON, an oversized one', async () => {
    const scan = await fetch(sim.scanUrl('weixin://wxpay/bizpayurl?pr=nope'));
    expect(await scan.text()).toContain('未找到订单');
    const post = (body: string) =>
      fetch(`${sim.baseUrl}/sim/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect((await post('{"code_url":"weixin://wxpay/bizpayurl?pr=nope"}')).status).toBe(404);
    const notJson = await post('{code_url');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ code: 'PARAM_ERROR' });
    expect((await post(`{"code_url":"${'x'.repeat(70_000)}"}`)).status).toBe(400);
  });

  it('pays by JSON with the notification delivered several times at once (bench/billing), at most 10', async () => {
    const { outTradeNo, codeUrl } = await order(900);
    const pay = (times: number) =>
      fetch(`${sim.baseUrl}/sim/pay`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code_url: codeUrl, times }),
      });
    expect((await pay(11)).status).toBe(400);
    expect((await provider.queryOrder(outTradeNo)).tradeState).toBe('NOTPAY');
    expect((await pay(5)).status).toBe(200);
    expect(lastFor(outTradeNo, 5)).toHaveLength(5);
  });

  it('says ORDER_NOT_EXIST (404) of an order it does not know', async () => {
    await expect(provider.queryOrder('NO-SUCH-ORDER-1')).rejects.toMatchObject({
      status: 404,
      code: 'ORDER_NOT_EXIST',
    });
  });

  it('delivers the same notification several times at once, each one valid and the same transaction', async () => {
    const { outTradeNo } = await order(800);
    await sim.pay(outTradeNo);
    const deliveries = await sim.notifyTransaction(outTradeNo, { times: 5 });
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200, 200]);
    const received = lastFor(outTradeNo, 6);
    const ids = received.map((r) => {
      const n = provider.parseNotification(r.headers, r.body);
      return n.eventType === 'TRANSACTION.SUCCESS' ? n.transaction.transactionId : '';
    });
    expect(new Set(ids).size).toBe(1);
    // The five repeats are one notification (one id, as WeChat Pay's retries are); the payment's own was another.
    const notificationIds = received.map((r) => (JSON.parse(r.body) as { id: string }).id);
    expect(new Set(notificationIds.slice(1)).size).toBe(1);
    expect(notificationIds[0]).not.toBe(notificationIds[1]);
  });

  it.each(['signature', 'serial', 'timestamp', 'ciphertext'] as const)(
    'refuses a notification with a spoilt %s',
    async (tamper) => {
      const { outTradeNo } = await order(700);
      await sim.pay(outTradeNo);
      const before = receiver.received.length;
      await sim.notifyTransaction(outTradeNo, { tamper });
      const spoilt = receiver.received.slice(before);
      expect(spoilt).toHaveLength(1);
      expect(() => provider.parseNotification(spoilt[0]?.headers ?? {}, spoilt[0]?.body ?? '')).toThrow(
        WechatPayNotificationError,
      );
    },
  );

  it('passes a validly signed notification with a wrong amount on to the merchant, who compares it with its row', async () => {
    const { outTradeNo } = await order(700);
    await sim.pay(outTradeNo);
    const before = receiver.received.length;
    await sim.notifyTransaction(outTradeNo, { tamper: 'amount' });
    const [spoilt] = receiver.received.slice(before);
    const n = provider.parseNotification(spoilt?.headers ?? {}, spoilt?.body ?? '');
    expect(n.eventType === 'TRANSACTION.SUCCESS' && n.transaction.amountFen).toBe(701);
  });

  it('refuses a notification whose body was changed after signing, or that lacks the signature headers', async () => {
    const { outTradeNo } = await order(300);
    await sim.pay(outTradeNo);
    const [good] = lastFor(outTradeNo);
    const changed = (good?.body ?? '').replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" ');
    expect(() => provider.parseNotification(good?.headers ?? {}, changed)).toThrow(WechatPayNotificationError);
    const { ['wechatpay-signature']: _dropped, ...unsigned } = good?.headers ?? {};
    expect(() => provider.parseNotification(unsigned, good?.body ?? '')).toThrow(/missing/);
  });

  it('posts nothing beyond loopback, and can be pointed at the server behind a public notify_url', async () => {
    const outTradeNo = newNo();
    await provider.createNativeOrder({
      outTradeNo,
      description: 'x',
      amountFen: 100,
      currency: 'CNY',
      notifyUrl: 'https://pacs.example.org/yyp/api/v1/payments/weixin/notify',
      expiresAt: inMinutes(5),
    });
    const [refused] = await sim.pay(outTradeNo);
    expect(refused).toMatchObject({ status: null, error: expect.stringMatching(/loopback/) });
    sim.setNotifyOrigin(receiver.origin);
    try {
      const [sent] = await sim.notifyTransaction(outTradeNo);
      expect(sent).toMatchObject({ status: 200, url: `${receiver.origin}/yyp/api/v1/payments/weixin/notify` });
    } finally {
      sim.setNotifyOrigin(undefined);
    }
    expect(() => sim.setNotifyOrigin('http://10.0.0.1:8080')).toThrow(/loopback/);
  });
});
