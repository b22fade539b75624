import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePlatformCertificate } from '../../sim/wechatpay/certificate.js';
import { startReceiver } from '../../sim/wechatpay/receiver.fixture.js';
import { startWechatPaySimulator, type WechatPaySimulator } from '../../sim/wechatpay/simulator.js';
import { createWechatPayClient, type WechatPayClientOptions } from './client.js';
import type { WechatPayNotification, WechatPayProvider } from './provider.js';
import { platformKeysFromCertificates } from './signature.js';

/**
 * Refunds (partial, full, refused beyond the payment, idempotent by out_refund_no) and their
 * notifications; the simulator refusing requests that are not the merchant's, and the adapter
 * refusing answers that are not the platform's.
 */

const merchantKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchant = {
  mchid: '1900000109',
  appid: 'wxd678efh567hg6787',
  serial: 'AB12CD34EF56AB12CD34EF56AB12CD34EF56AB12',
};
const apiV3Key = randomBytes(24).toString('base64url');

let sim: WechatPaySimulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let options: WechatPayClientOptions;
let provider: WechatPayProvider;

beforeAll(async () => {
  receiver = await startReceiver();
  sim = await startWechatPaySimulator({
    merchant: { ...merchant, publicKey: merchantKeys.publicKey },
    apiV3Key,
    refundDelayMs: 30,
    retryDelaysMs: [20],
  });
  options = {
    baseUrl: sim.baseUrl,
    mchid: merchant.mchid,
    appid: merchant.appid,
    merchant: { serial: merchant.serial, privateKey: merchantKeys.privateKey },
    apiV3Key,
    platformKeys: platformKeysFromCertificates([sim.platformCertificatePem]),
  };
  provider = createWechatPayClient(options);
});

afterAll(async () => {
  await sim.close();
  await receiver.close();
});

const notifyUrl = () => `${receiver.origin}/yyp/api/v1/payments/weixin/refund-notify`;

async function paidOrder(totalFen: number): Promise<string> {
  const outTradeNo = `P${Date.now()}${randomBytes(4).toString('hex')}`;
  await provider.createNativeOrder({
    outTradeNo,
    description: '远程诊断',
    amountFen: totalFen,
    currency: 'CNY',
    notifyUrl: `${receiver.origin}/yyp/api/v1/payments/weixin/notify`,
    expiresAt: new Date(Date.now() + 600_000),
  });
  await sim.pay(outTradeNo);
  return outTradeNo;
}

function refundNotices(): WechatPayNotification[] {
  return receiver.received
    .filter((r) => r.path.endsWith('/refund-notify'))
    .map((r) => provider.parseNotification(r.headers, r.body));
}

const refund = (outTradeNo: string, outRefundNo: string, refundFen: number, totalFen: number) =>
  provider.refund({
    outTradeNo,
    outRefundNo,
    refundFen,
    totalFen,
    currency: 'CNY',
    reason: '部分退款',
    notifyUrl: notifyUrl(),
  });

describe('refunds through the simulator', () => {
  it('refunds part, then the rest, each PROCESSING until REFUND.SUCCESS is notified, and never more than was paid', async () => {
    const outTradeNo = await paidOrder(1000);
    const first = await refund(outTradeNo, `${outTradeNo}R1`, 300, 1000);
    expect(first.status).toBe('PROCESSING');
    expect((await provider.queryOrder(outTradeNo)).tradeState).toBe('REFUND');
    await sim.whenIdle();
    expect(await provider.queryRefund(`${outTradeNo}R1`)).toEqual({
      refundId: first.refundId,
      status: 'SUCCESS',
      amountFen: 300,
    });
    expect(refundNotices().at(-1)).toEqual({
      eventType: 'REFUND.SUCCESS',
      refund: {
        outTradeNo,
        outRefundNo: `${outTradeNo}R1`,
        refundId: first.refundId,
        status: 'SUCCESS',
        refundFen: 300,
      },
    });

    await expect(refund(outTradeNo, `${outTradeNo}R2`, 701, 1000)).rejects.toMatchObject({
      status: 403,
      code: 'NOT_ENOUGH',
    });
    const rest = await refund(outTradeNo, `${outTradeNo}R2`, 700, 1000);
    // The same refund number again is the same refund, not a second one.
    expect((await refund(outTradeNo, `${outTradeNo}R2`, 700, 1000)).refundId).toBe(rest.refundId);
    await sim.whenIdle();
    expect(
      refundNotices().filter((n) => n.eventType === 'REFUND.SUCCESS' && n.refund.outTradeNo === outTradeNo),
    ).toHaveLength(2);
    await expect(refund(outTradeNo, `${outTradeNo}R3`, 1, 1000)).rejects.toMatchObject({ code: 'NOT_ENOUGH' });
  });

  it('refunds at once when told, and refuses a refund of an unpaid order or with the wrong total', async () => {
    const outTradeNo = await paidOrder(500);
    sim.setRefundDelayMs(0);
    try {
      expect((await refund(outTradeNo, `${outTradeNo}R1`, 500, 500)).status).toBe('SUCCESS');
    } finally {
      sim.setRefundDelayMs(30);
    }
    await sim.whenIdle();
    expect(
      refundNotices().some((n) => n.eventType === 'REFUND.SUCCESS' && n.refund.outRefundNo === `${outTradeNo}R1`),
    ).toBe(true);
    const other = await paidOrder(400);
    await expect(refund(other, `${other}R1`, 100, 399)).rejects.toMatchObject({ status: 400, code: 'PARAM_ERROR' });
    await expect(refund('UNKNOWN-ORDER', 'UNKNOWN-ORDER-R1', 1, 1)).rejects.toMatchObject({ status: 404 });
    await expect(provider.queryRefund('NO-SUCH-REFUND')).rejects.toMatchObject({
      status: 404,
      code: 'RESOURCE_NOT_EXISTS',
    });
  });

  it('notifies REFUND.ABNORMAL when a refund fails, and spoilt refund notifications are refused', async () => {
    const outTradeNo = await paidOrder(200);
    sim.setRefundDelayMs(60_000);
    try {
      await refund(outTradeNo, `${outTradeNo}R1`, 200, 200);
      await sim.settleRefund(`${outTradeNo}R1`, 'ABNORMAL');
    } finally {
      sim.setRefundDelayMs(30);
    }
    expect(refundNotices().at(-1)).toMatchObject({ eventType: 'REFUND.ABNORMAL', refund: { status: 'ABNORMAL' } });
    expect((await provider.queryRefund(`${outTradeNo}R1`)).status).toBe('ABNORMAL');
    for (const tamper of ['signature', 'serial', 'timestamp', 'ciphertext'] as const) {
      const before = receiver.received.length;
      await sim.notifyRefund(`${outTradeNo}R1`, { tamper });
      const [spoilt] = receiver.received.slice(before);
      expect(() => provider.parseNotification(spoilt?.headers ?? {}, spoilt?.body ?? '')).toThrow();
    }
  });

  it('retries a notification the merchant did not take', async () => {
    const outTradeNo = `P${Date.now()}retry`;
    await provider.createNativeOrder({
      outTradeNo,
      description: 'retry',
      amountFen: 100,
      currency: 'CNY',
      notifyUrl: `${receiver.origin}/notify-retry`,
      expiresAt: new Date(Date.now() + 600_000),
    });
    receiver.statuses.push(500);
    await sim.pay(outTradeNo);
    await sim.whenIdle();
    expect(sim.deliveries.filter((d) => d.ref === outTradeNo).map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 200],
    ]);
  });
});

describe('who is trusted', () => {
  it('the simulator refuses requests not signed by the merchant key, with another serial, or from a stale clock', async () => {
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const cases: Partial<WechatPayClientOptions>[] = [
      { merchant: { serial: merchant.serial, privateKey: stranger } },
      { merchant: { serial: 'FFFF0000FFFF0000FFFF0000FFFF0000FFFF0000', privateKey: merchantKeys.privateKey } },
      { now: () => new Date(Date.now() - 6 * 60_000) },
      { mchid: '1900000999' },
    ];
    for (const change of cases) {
      const client = createWechatPayClient({ ...options, ...change });
      await expect(client.queryOrder('WHATEVER-1')).rejects.toMatchObject({ status: 401, code: 'SIGN_ERROR' });
    }
  });

  it('the adapter refuses an answer signed by another key or under an unknown serial', async () => {
    const impostor = makePlatformCertificate({ commonName: 'impostor' });
    const wrongKey = new Map([[sim.platformSerial, impostor.publicKey]]);
    const unknownSerial = platformKeysFromCertificates([impostor.pem]);
    const cases: Partial<WechatPayClientOptions>[] = [{ platformKeys: wrongKey }, { platformKeys: unknownSerial }];
    // (A stale answer timestamp cannot be staged here: the simulator checks the request's against
    // the same 5 minutes; signature.test.ts checks signedMessageProblem's window directly.)
    for (const change of cases) {
      const client = createWechatPayClient({ ...options, ...change });
      const created = client.createNativeOrder({
        outTradeNo: `S${Date.now()}${randomBytes(3).toString('hex')}`,
        description: 'x',
        amountFen: 1,
        currency: 'CNY',
        notifyUrl: notifyUrl(),
        expiresAt: new Date(Date.now() + 600_000),
      });
      await expect(created).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' });
    }
  });
});
