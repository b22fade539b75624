import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Aes, Wechatpay } from 'wechatpay-axios-plugin';
import { makePlatformCertificate } from './certificate.js';
import { startReceiver } from './receiver.fixture.js';
import { startWechatPaySimulator, type WechatPaySimulator } from './simulator.js';

/**
 * The simulator against a second, independent client: wechatpay-axios-plugin's own Wechatpay
 * (its Decorator signs requests and verifies answers on its own, and is what merchants run against
 * the real API). What it accepts, the real API's clients accept; our adapter is not involved here.
 */

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchant = {
  mchid: '1900000109',
  appid: 'wxd678efh567hg6787',
  serial: '1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C',
};
const apiV3Key = randomBytes(24).toString('base64url');
let sim: WechatPaySimulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

/** The SDK's chained client (wxpay.v3.pay.transactions.native.post), which its typings leave open. */
interface Answer {
  status: number;
  data: Record<string, unknown>;
}
interface Endpoint {
  get(config?: object): Promise<Answer>;
  post(data?: object, config?: object): Promise<Answer>;
}
/** wxpay.v3.pay.transactions.native, as endpoint(wxpay, 'v3.pay.transactions.native') */
function endpoint(wxpay: Wechatpay, path: string): Endpoint {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], wxpay) as Endpoint;
}

function client(certs: Record<string, string>): Wechatpay {
  return new Wechatpay({
    mchid: merchant.mchid,
    serial: merchant.serial,
    privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    certs,
    baseURL: `${sim.baseUrl}/`,
    proxy: false,
  } as ConstructorParameters<typeof Wechatpay>[0]);
}

beforeAll(async () => {
  receiver = await startReceiver();
  sim = await startWechatPaySimulator({
    merchant: { ...merchant, publicKey: keys.publicKey },
    apiV3Key,
    refundDelayMs: 0,
    retryDelaysMs: [],
  });
});

afterAll(async () => {
  await sim.close();
  await receiver.close();
});

describe("wechatpay-axios-plugin's Wechatpay client against the simulator", () => {
  it('creates, queries, pays, refunds and queries the refund, every answer verified by the SDK', async () => {
    const wxpay = client({ [sim.platformSerial]: sim.platformCertificatePem });
    const outTradeNo = `SDK${Date.now()}`;
    const created = await endpoint(wxpay, 'v3.pay.transactions.native').post({
      appid: merchant.appid,
      mchid: merchant.mchid,
      description: 'SDK order',
      out_trade_no: outTradeNo,
      notify_url: `${receiver.origin}/notify`,
      amount: { total: 321, currency: 'CNY' },
    });
    expect(created.status).toBe(200);
    expect(created.data.code_url).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    const unpaid = await endpoint(wxpay, 'v3.pay.transactions.outTradeNo._out_trade_no_').get({
      params: { mchid: merchant.mchid },
      out_trade_no: outTradeNo,
    });
    expect(unpaid.data).toMatchObject({ trade_state: 'NOTPAY', amount: { total: 321 } });
    await sim.pay(String(created.data.code_url));
    const paid = await endpoint(wxpay, 'v3.pay.transactions.outTradeNo._out_trade_no_').get({
      params: { mchid: merchant.mchid },
      out_trade_no: outTradeNo,
    });
    expect(paid.data).toMatchObject({
      trade_state: 'SUCCESS',
      trade_type: 'NATIVE',
      payer: { openid: expect.any(String) },
    });
    const refund = await endpoint(wxpay, 'v3.refund.domestic.refunds').post({
      out_trade_no: outTradeNo,
      out_refund_no: `${outTradeNo}R`,
      notify_url: `${receiver.origin}/refund-notify`,
      amount: { refund: 21, total: 321, currency: 'CNY' },
    });
    expect(refund.data).toMatchObject({ status: 'SUCCESS', amount: { refund: 21, total: 321 } });
    const queried = await endpoint(wxpay, 'v3.refund.domestic.refunds._out_refund_no_').get({
      out_refund_no: `${outTradeNo}R`,
    });
    expect(queried.data.refund_id).toBe(refund.data.refund_id);
  });

  it('downloads the platform certificate (GET /v3/certificates), encrypted with the APIv3 key', async () => {
    const answer = await endpoint(
      client({ [sim.platformSerial]: sim.platformCertificatePem }),
      'v3.certificates',
    ).get();
    const [entry] = answer.data.data as {
      serial_no: string;
      encrypt_certificate: { algorithm: string; nonce: string; associated_data: string; ciphertext: string };
    }[];
    expect(entry?.serial_no).toBe(sim.platformSerial);
    expect(entry?.encrypt_certificate).toMatchObject({ algorithm: 'AEAD_AES_256_GCM', associated_data: 'certificate' });
    const { ciphertext, nonce, associated_data } = entry?.encrypt_certificate ?? {
      ciphertext: '',
      nonce: '',
      associated_data: '',
    };
    expect(Aes.AesGcm.decrypt(ciphertext, Buffer.from(apiV3Key), nonce, associated_data)).toBe(
      sim.platformCertificatePem,
    );
  });

  it('closes with 204 No Content, still signed', async () => {
    const wxpay = client({ [sim.platformSerial]: sim.platformCertificatePem });
    const outTradeNo = `SDK${Date.now()}C`;
    await endpoint(wxpay, 'v3.pay.transactions.native').post({
      appid: merchant.appid,
      mchid: merchant.mchid,
      description: 'SDK order',
      out_trade_no: outTradeNo,
      notify_url: `${receiver.origin}/notify`,
      amount: { total: 1 },
    });
    const closed = await endpoint(wxpay, 'v3.pay.transactions.outTradeNo._out_trade_no_.close').post(
      { mchid: merchant.mchid },
      { out_trade_no: outTradeNo },
    );
    expect(closed.status).toBe(204);
  });

  it('the SDK refuses a 200 answer when it trusts another platform key under that serial', async () => {
    const trusted = client({ [sim.platformSerial]: sim.platformCertificatePem });
    const outTradeNo = `SDK${Date.now()}I`;
    await endpoint(trusted, 'v3.pay.transactions.native').post({
      appid: merchant.appid,
      mchid: merchant.mchid,
      description: 'SDK order',
      out_trade_no: outTradeNo,
      notify_url: `${receiver.origin}/notify`,
      amount: { total: 1 },
    });
    const query = (wxpay: Wechatpay, no: string) =>
      endpoint(wxpay, 'v3.pay.transactions.outTradeNo._out_trade_no_').get({
        params: { mchid: merchant.mchid },
        out_trade_no: no,
      });
    expect((await query(trusted, outTradeNo)).status).toBe(200);
    const impostor = makePlatformCertificate({ commonName: 'impostor' });
    await expect(query(client({ [sim.platformSerial]: impostor.pem }), outTradeNo)).rejects.toThrow(/Verify/);
    // …and the simulator's error answers reach it as WeChat's {code, message}.
    const err = await query(trusted, 'ANY-ORDER-1').then(
      () => undefined,
      (e: unknown) => e as { response?: { status: number; data: unknown } },
    );
    expect(err?.response?.status).toBe(404);
    expect(err?.response?.data).toMatchObject({ code: 'ORDER_NOT_EXIST' });
  });
});
