import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmsSimulator, type SmsSimulator } from '../../sim/sms/simulator.js';
import { createAliyunSms, serviceNumber, type AliyunSmsOptions } from './aliyun.js';
import { createDevSms } from './dev.js';
import { SmsSendError, type SmsMessage, type SmsProvider } from './provider.js';
import { smsSettings } from './settings.js';
import { signedSendSmsParams } from './signature.js';
import { startSms } from './start.js';

// The Alibaba Cloud SMS adapter against the local simulator of its API (docs/sms.md), and the
// providers startSms makes. Nothing leaves loopback.

const key = { accessKeyId: 'LTAI5tSimulator01', accessKeySecret: 'sim-secret-0123456789' };
const SIGN = '仁和医院';
const templates = { 'reset-password': 'SMS_000000001', 'bind-mobile': 'SMS_000000002' };
let clock = Date.parse('2026-11-28T08:00:00Z');
const now = () => new Date(clock);
let sim: SmsSimulator;
let sms: SmsProvider;

const adapter = (change: Partial<AliyunSmsOptions> = {}) =>
  createAliyunSms({ endpoint: sim.url, region: 'cn-hangzhou', ...key, signName: SIGN, templates, now, ...change });

beforeAll(async () => {
  sim = await startSmsSimulator({
    ...key,
    signName: SIGN,
    templates: { SMS_000000001: '重置密码验证码${code}', SMS_000000002: '绑定手机验证码${code}' },
    now,
  });
  sms = adapter();
});
afterAll(async () => {
  await sim?.close();
});

async function failure(provider: SmsProvider, message: SmsMessage): Promise<SmsSendError> {
  try {
    await provider.send(message);
  } catch (err) {
    if (err instanceof SmsSendError) return err;
    throw err;
  }
  throw new Error('the message was sent');
}

/** A loopback server answering every request with `answer` (or never, when undefined). */
async function fakeService(answer?: { status: number; body: string }) {
  const server = http.createServer((_req, res) => {
    if (answer) res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the Alibaba Cloud SMS adapter', () => {
  it("sends the code in the purpose's template under the sign name, to the mainland number", async () => {
    await sms.send({ phone: '+8613900000001', purpose: 'reset-password', code: '012345' });
    expect(sim.lastCode('13900000001')).toBe('012345');
    expect(sim.lastCode('+8613900000001')).toBe('012345');
    expect(sim.messages('13900000001')).toEqual([
      {
        phone: '13900000001',
        signName: SIGN,
        templateCode: 'SMS_000000001',
        code: '012345',
        text: '【仁和医院】重置密码验证码012345',
        at: '2026-11-28T08:00:00.000Z',
        bizId: expect.stringMatching(/^\d+\^0$/),
      },
    ]);
    expect(await (await fetch(`${sim.url}/inbox.json?phone=13900000001`)).json()).toHaveLength(1);
  });

  it('writes numbers as the service takes them', () => {
    expect(serviceNumber('13912345678')).toBe('13912345678');
    expect(serviceNumber('+8613912345678')).toBe('13912345678');
    expect(serviceNumber('8613912345678')).toBe('13912345678');
    expect(serviceNumber('+447700900123')).toBe('447700900123');
    expect(serviceNumber('+85261234567')).toBe('85261234567');
  });

  it('is refused with a wrong secret or key id, and nothing arrives', async () => {
    const err = await failure(adapter({ accessKeySecret: 'guessed-secret' }), {
      phone: '13900000002',
      purpose: 'bind-mobile',
      code: '111111',
    });
    expect(err).toMatchObject({ reason: 'rejected', serviceCode: 'SignatureDoesNotMatch' });
    expect(err.message).toContain('ALIYUN_SMS_ACCESS_KEY_SECRET');
    for (const secret of ['guessed-secret', key.accessKeySecret, '111111', '13900000002']) {
      expect(err.message).not.toContain(secret);
    }
    expect(
      await failure(adapter({ accessKeyId: 'LTAIunknown000' }), {
        phone: '13900000002',
        purpose: 'bind-mobile',
        code: '1',
      }),
    ).toMatchObject({ reason: 'rejected', serviceCode: 'InvalidAccessKeyId.NotFound' });
    expect(sim.messages('13900000002')).toHaveLength(0);
  });

  it("meets the service's flow control per number: one code a minute, five an hour", async () => {
    const phone = '13900000003';
    const send = (code: string) => sms.send({ phone, purpose: 'bind-mobile', code });
    await send('222222');
    // The limit is the sign name's, whatever the template.
    const second = await failure(sms, { phone, purpose: 'reset-password', code: '333333' });
    expect(second).toMatchObject({ reason: 'rate-limited', serviceCode: 'isv.BUSINESS_LIMIT_CONTROL' });
    expect(second.message).not.toContain('333333');
    // Another number still gets its code.
    await sms.send({ phone: '13900000004', purpose: 'bind-mobile', code: '444444' });
    expect(sim.lastCode('13900000004')).toBe('444444');
    for (let i = 0; i < 4; i++) {
      clock += 61_000;
      await send(`55555${i}`);
    }
    clock += 61_000;
    expect((await failure(sms, { phone, purpose: 'bind-mobile', code: '5' })).reason).toBe('rate-limited');
    expect(sim.messages(phone)).toHaveLength(5);
    expect(sim.lastCode(phone)).toBe('555553');
    sim.resetLimits();
    await send('666666');
    expect(sim.lastCode(phone)).toBe('666666');
  });

  it('reports numbers the service does not take', async () => {
    for (const phone of ['12345', '23900000000', '+447700900123']) {
      expect(await failure(sms, { phone, purpose: 'bind-mobile', code: '6' }), phone).toMatchObject({
        reason: 'invalid-number',
        serviceCode: 'isv.MOBILE_NUMBER_ILLEGAL',
      });
    }
  });

  it('reports a sign name or template the account does not have as rejected', async () => {
    const phone = '13900000005';
    expect(
      await failure(adapter({ signName: '别家医院' }), { phone, purpose: 'bind-mobile', code: '7' }),
    ).toMatchObject({
      reason: 'rejected',
      serviceCode: 'isv.SMS_SIGNATURE_ILLEGAL',
    });
    const untemplated = adapter({ templates: { ...templates, 'bind-mobile': 'SMS_999999999' } });
    expect(await failure(untemplated, { phone, purpose: 'bind-mobile', code: '8' })).toMatchObject({
      reason: 'rejected',
      serviceCode: 'isv.SMS_TEMPLATE_ILLEGAL',
    });
    expect(sim.messages(phone)).toHaveLength(0);
  });

  it('says the service is unavailable when nothing answers, in time, or as documented', async () => {
    const message: SmsMessage = { phone: '13900000008', purpose: 'bind-mobile', code: '888888' };
    const closed = await startSmsSimulator({ ...key, signName: SIGN, templates: { SMS_1: '${code}' } });
    await closed.close();
    expect(await failure(adapter({ endpoint: closed.url }), message)).toMatchObject({ reason: 'unavailable' });

    const silent = await fakeService();
    const slow = await failure(adapter({ endpoint: silent.url, timeoutMs: 200 }), message);
    await silent.close();
    expect(slow).toMatchObject({ reason: 'unavailable', message: 'Alibaba Cloud SMS gave no answer within 200 ms' });

    for (const answer of [
      { status: 503, body: '{"Code":"ServiceUnavailable","Message":"busy"}' },
      { status: 502, body: '<html>Bad Gateway</html>' },
      { status: 200, body: 'OK' },
      { status: 400, body: '{"Code":"Throttling.User","Message":"Request was denied due to user flow control."}' },
    ]) {
      const service = await fakeService(answer);
      const err = await failure(adapter({ endpoint: service.url }), message);
      await service.close();
      expect(err.reason, answer.body).toBe('unavailable');
      expect(err.message).not.toContain('888888');
    }
  });
});

describe('the simulator', () => {
  const request = (change: Partial<Parameters<typeof signedSendSmsParams>[0]> = {}, method: 'GET' | 'POST' = 'POST') =>
    signedSendSmsParams(
      {
        ...key,
        region: 'cn-hangzhou',
        phoneNumbers: '13900000006',
        signName: SIGN,
        templateCode: 'SMS_000000002',
        templateParam: { code: '616161' },
        now: now(),
        ...change,
      },
      method,
    );
  const post = (params: Record<string, string>) =>
    fetch(sim.url, {
      method: 'POST',
      body: new URLSearchParams(params),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });

  it('refuses a replayed request: a signature nonce is used once', async () => {
    const params = request();
    const first = await post(params);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      Message: 'OK',
      RequestId: expect.stringMatching(/^[0-9A-F-]{36}$/),
      BizId: expect.any(String),
      Code: 'OK',
    });
    const replay = await post(params);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({
      Code: 'SignatureNonceUsed',
      Message: 'Specified signature nonce was used already.',
      HostId: 'dysmsapi.aliyuncs.com',
      Recommend: expect.stringContaining('SignatureNonceUsed'),
    });
    // Still refused fourteen minutes on, while the Timestamp would pass.
    clock += 14 * 60_000;
    expect((await post(params)).status).toBe(400);
    expect(sim.messages('13900000006')).toHaveLength(1);
  });

  it('takes GET with the query as well, and refuses an old Timestamp or a tampered parameter', async () => {
    clock += 60 * 60_000;
    const get = await fetch(`${sim.url}/?${new URLSearchParams(request({ phoneNumbers: '13900000007' }, 'GET'))}`);
    expect(await get.json()).toMatchObject({ Code: 'OK' });
    expect(sim.lastCode('13900000007')).toBe('616161');

    const stale = await post(request({ phoneNumbers: '13900000009', now: new Date(clock - 16 * 60_000) }));
    expect(stale.status).toBe(400);
    expect(await stale.json()).toMatchObject({ Code: 'InvalidTimeStamp.Expired' });

    const tampered = await post({ ...request({ phoneNumbers: '13900000009' }), PhoneNumbers: '13900000010' });
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ Code: 'SignatureDoesNotMatch' });

    const unknownKey = await post(request({ accessKeyId: 'LTAInobody', phoneNumbers: '13900000009' }));
    expect(unknownKey.status).toBe(404);
    const noCode = await post(request({ phoneNumbers: '13900000009', templateParam: { other: '1' } }));
    expect(noCode.status).toBe(200);
    expect(await noCode.json()).toMatchObject({ Code: 'isv.TEMPLATE_MISSING_PARAMETERS' });
    expect(sim.messages('13900000009')).toHaveLength(0);
  });

  it('lists what it received on an escaped inbox page, newest first', async () => {
    clock += 60 * 60_000;
    await sms.send({ phone: '13900000011', purpose: 'bind-mobile', code: '<b>1</b>' });
    clock += 61_000;
    await sms.send({ phone: '13900000011', purpose: 'reset-password', code: '121212' });
    const page = await (await fetch(`${sim.inboxUrl}?phone=13900000011`)).text();
    expect(page).toContain('&lt;b&gt;1&lt;/b&gt;');
    expect(page).not.toContain('<b>1</b>');
    expect(page.indexOf('121212')).toBeLessThan(page.indexOf('&lt;b&gt;1'));
    expect(page).not.toContain('13900000001');
    expect(sim.messages()[0]?.code).toBe('121212');
  });
});

describe('startSms', () => {
  const silent = { info: () => undefined };

  it('runs the simulator with the Alibaba Cloud adapter in front of it', async () => {
    const runtime = await startSms(smsSettings({ YYP_SMS: 'sim' }), { log: silent, now });
    try {
      expect(runtime.provider?.kind).toBe('aliyun');
      await runtime.provider?.send({ phone: '13900000012', purpose: 'reset-password', code: '131313' });
      expect(runtime.simulator?.lastCode('13900000012')).toBe('131313');
      expect(runtime.simulator?.messages('13900000012')[0]).toMatchObject({
        signName: 'yyp',
        templateCode: 'SMS_000000001',
        text: expect.stringContaining('验证码131313'),
      });
      expect(runtime.simulator?.inboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/inbox$/);
    } finally {
      await runtime.close();
    }
    expect(await failure(runtime.provider!, { phone: '13900000012', purpose: 'bind-mobile', code: '1' })).toMatchObject(
      {
        reason: 'unavailable',
      },
    );
  });

  it('puts the simulator on YYP_SMS_SIM_PORT when given (the e2e reads its inbox there)', async () => {
    const free = await fakeService();
    await free.close();
    const port = new URL(free.url).port;
    const runtime = await startSms(smsSettings({ YYP_SMS: 'sim', YYP_SMS_SIM_PORT: port }), { log: silent, now });
    try {
      expect(runtime.simulator?.url).toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`${runtime.simulator?.url}/inbox.json`)).status).toBe(200);
    } finally {
      await runtime.close();
    }
  });

  it('gives no provider when off, the log when dev, and the adapter when aliyun', async () => {
    expect((await startSms(smsSettings({ YYP_SMS: 'off' }), { log: silent })).provider).toBeNull();
    expect((await startSms(smsSettings({ YYP_SMS: 'dev' }), { log: silent, env: {} })).provider?.kind).toBe('dev');
    const live = await startSms(
      smsSettings({
        YYP_SMS: 'aliyun',
        ALIYUN_SMS_ACCESS_KEY_ID: key.accessKeyId,
        ALIYUN_SMS_ACCESS_KEY_SECRET: key.accessKeySecret,
        ALIYUN_SMS_SIGN_NAME: SIGN,
        ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: templates['reset-password'],
        ALIYUN_SMS_TEMPLATE_BIND_MOBILE: templates['bind-mobile'],
        ALIYUN_SMS_ENDPOINT: sim.url,
      }),
      { log: silent, now },
    );
    expect(live.simulator).toBeUndefined();
    // what the platform admin sees: the account in effect, the key id masked, never the secret
    expect(live.status).toEqual({
      mode: 'aliyun',
      endpoint: sim.url,
      region: 'cn-hangzhou',
      signName: SIGN,
      templates: { resetPassword: templates['reset-password'], bindMobile: templates['bind-mobile'] },
      accessKeyId: `${key.accessKeyId.slice(0, 4)}****${key.accessKeyId.slice(-2)}`,
      inboxUrl: null,
      source: 'environment',
      updatedAt: null,
      secretUnreadable: false,
    });
    expect(JSON.stringify(live.status)).not.toContain(key.accessKeySecret);
    expect((await startSms(smsSettings({ YYP_SMS: 'off' }), { log: silent })).status.mode).toBe('off');
    clock += 24 * 3600_000;
    await live.provider?.send({ phone: '13900000013', purpose: 'bind-mobile', code: '141414' });
    expect(sim.lastCode('13900000013')).toBe('141414');
  });
});

describe('the development provider', () => {
  it('writes the code to the log with the number masked, and is refused in production', async () => {
    const lines: { obj: object; msg: string }[] = [];
    const dev = createDevSms({ info: (obj, msg) => lines.push({ obj, msg }) }, { NODE_ENV: 'development' });
    await dev.send({ phone: '13900000014', purpose: 'reset-password', code: '909090' });
    expect(lines).toEqual([
      {
        obj: { phone: '*******0014', purpose: 'reset-password', code: '909090' },
        msg: expect.stringContaining('development SMS provider'),
      },
    ]);
    expect(() => createDevSms({ info: () => undefined }, { NODE_ENV: 'production' })).toThrow(
      'YYP_SMS=dev writes codes to the log and is refused in production',
    );
  });
});
