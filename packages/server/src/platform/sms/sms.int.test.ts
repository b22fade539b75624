import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmsSimulator, type SmsSimulator } from '../../sim/sms/simulator.js';
import { createAliyunSms } from './aliyun.js';
import { createDevSms } from './dev.js';
import { SmsSendError, type SmsMessage, type SmsProvider } from './provider.js';
import { signedSendSmsParams } from './signature.js';

// The Alibaba Cloud SMS adapter against the local simulator of its API (docs/sms.md).

const key = { accessKeyId: 'LTAI5tSimulator01', accessKeySecret: 'sim-secret-0123456789' };
const templates = { 'reset-password': 'SMS_000000001', 'bind-mobile': 'SMS_000000002' };
let sim: SmsSimulator;
let sms: SmsProvider;
let clock = Date.parse('2026-11-28T08:00:00Z');
const now = () => new Date(clock);

beforeAll(async () => {
  sim = await startSmsSimulator({
    ...key,
    signName: '仁和医院',
    templates: { SMS_000000001: '重置密码验证码${code}', SMS_000000002: '绑定手机验证码${code}' },
    now,
  });
  sms = createAliyunSms({ endpoint: sim.url, region: 'cn-hangzhou', ...key, signName: '仁和医院', templates, now });
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

describe('the Alibaba Cloud SMS adapter', () => {
  it('sends the code in the purpose’s template under the sign name', async () => {
    await sms.send({ phone: '+8613900000001', purpose: 'reset-password', code: '012345' });
    expect(sim.lastCode('13900000001')).toBe('012345');
    expect(sim.messages('13900000001')[0]).toMatchObject({
      templateCode: 'SMS_000000001',
      text: '【仁和医院】重置密码验证码012345',
    });
    const inbox = await (await fetch(`${sim.url}/inbox.json?phone=13900000001`)).json();
    expect(inbox).toHaveLength(1);
    const page = await (await fetch(sim.inboxUrl)).text();
    expect(page).toContain('012345');
  });

  it('is refused with a wrong secret, and nothing arrives', async () => {
    const wrong = createAliyunSms({
      endpoint: sim.url,
      region: 'cn-hangzhou',
      ...key,
      accessKeySecret: 'guess',
      signName: '仁和医院',
      templates,
      now,
    });
    const err = await failure(wrong, { phone: '13900000002', purpose: 'bind-mobile', code: '111111' });
    expect(err).toMatchObject({ reason: 'rejected', serviceCode: 'SignatureDoesNotMatch' });
    expect(err.message).not.toContain('guess');
    const unknown = createAliyunSms({
      endpoint: sim.url,
      region: 'cn-hangzhou',
      ...key,
      accessKeyId: 'LTAIunknown000',
      signName: '仁和医院',
      templates,
      now,
    });
    expect(await failure(unknown, { phone: '13900000002', purpose: 'bind-mobile', code: '1' })).toMatchObject({
      serviceCode: 'InvalidAccessKeyId.NotFound',
    });
    expect(sim.messages('13900000002')).toHaveLength(0);
  });

  it('meets the flow control: one code a minute, five an hour, ten a day per number', async () => {
    const phone = '13900000003';
    const send = () => sms.send({ phone, purpose: 'bind-mobile', code: '222222' });
    await send();
    expect(await failure(sms, { phone, purpose: 'reset-password', code: '3' })).toMatchObject({
      reason: 'rate-limited',
      serviceCode: 'isv.BUSINESS_LIMIT_CONTROL',
    });
    await sms.send({ phone: '13900000004', purpose: 'bind-mobile', code: '444444' });
    for (let i = 0; i < 4; i++) {
      clock += 61_000;
      await send();
    }
    clock += 61_000;
    expect((await failure(sms, { phone, purpose: 'bind-mobile', code: '5' })).reason).toBe('rate-limited');
    expect(sim.messages(phone)).toHaveLength(5);
  });

  it('reports a number the service does not take, a wrong sign name and template', async () => {
    expect(await failure(sms, { phone: '12345', purpose: 'bind-mobile', code: '6' })).toMatchObject({
      reason: 'invalid-number',
      serviceCode: 'isv.MOBILE_NUMBER_ILLEGAL',
    });
    const unsigned = createAliyunSms({
      endpoint: sim.url,
      region: 'cn-hangzhou',
      ...key,
      signName: '别家医院',
      templates,
      now,
    });
    expect(await failure(unsigned, { phone: '13900000005', purpose: 'bind-mobile', code: '7' })).toMatchObject({
      reason: 'rejected',
      serviceCode: 'isv.SMS_SIGNATURE_ILLEGAL',
    });
    const untemplated = createAliyunSms({
      endpoint: sim.url,
      region: 'cn-hangzhou',
      ...key,
      signName: '仁和医院',
      templates: { ...templates, 'bind-mobile': 'SMS_999' },
      now,
    });
    expect(await failure(untemplated, { phone: '13900000005', purpose: 'bind-mobile', code: '8' })).toMatchObject({
      serviceCode: 'isv.SMS_TEMPLATE_ILLEGAL',
    });
  });

  it('refuses a replayed request and an old timestamp', async () => {
    const params = signedSendSmsParams({
      ...key,
      region: 'cn-hangzhou',
      phoneNumbers: '13900000006',
      signName: '仁和医院',
      templateCode: 'SMS_000000002',
      templateParam: { code: '666666' },
      now: now(),
    });
    const post = () =>
      fetch(sim.url, {
        method: 'POST',
        body: new URLSearchParams(params),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect(await (await post()).json()).toMatchObject({ Code: 'OK' });
    const replay = await post();
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ Code: 'SignatureNonceUsed' });
    const old = signedSendSmsParams({
      ...key,
      region: 'cn-hangzhou',
      phoneNumbers: '13900000007',
      signName: '仁和医院',
      templateCode: 'SMS_000000002',
      templateParam: { code: '7' },
      now: new Date(clock - 16 * 60_000),
    });
    const stale = await fetch(`${sim.url}/?${new URLSearchParams(old)}`);
    expect(await stale.json()).toMatchObject({ Code: 'InvalidTimeStamp.Expired' });
    expect(sim.messages('13900000006')).toHaveLength(1);
  });

  it('says the service is unavailable when nothing answers in time', async () => {
    const closed = await startSmsSimulator({ ...key, signName: 's', templates: {} });
    await closed.close();
    const down = createAliyunSms({
      endpoint: closed.url,
      region: 'cn-hangzhou',
      ...key,
      signName: 's',
      templates,
      now,
    });
    expect((await failure(down, { phone: '13900000008', purpose: 'bind-mobile', code: '8' })).reason).toBe(
      'unavailable',
    );
    const { createServer } = await import('node:http');
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as { port: number }).port;
    const slow = createAliyunSms({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'cn-hangzhou',
      ...key,
      signName: 's',
      templates,
      now,
      timeoutMs: 200,
    });
    const err = await failure(slow, { phone: '13900000008', purpose: 'bind-mobile', code: '8' });
    expect(err.reason).toBe('unavailable');
    expect(err.message).toContain('no answer within 200 ms');
    silent.closeAllConnections();
    silent.close();
  });
});

describe('the development provider', () => {
  it('writes the code to the log, the number masked', async () => {
    const lines: { obj: object; msg: string }[] = [];
    const dev = createDevSms({ info: (obj, msg) => lines.push({ obj, msg }) }, {});
    await dev.send({ phone: '13900000009', purpose: 'reset-password', code: '909090' });
    expect(lines).toEqual([
      {
        obj: { phone: '*******0009', purpose: 'reset-password', code: '909090' },
        msg: expect.stringContaining('YYP_SMS=dev'),
      },
    ]);
  });
});
