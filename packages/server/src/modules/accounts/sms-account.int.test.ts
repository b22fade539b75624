import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { smsSettings, startSms, type SmsRuntime } from '../../platform/sms/index.js';
import { startSmsSimulator, type SmsSimulator } from '../../sim/sms/simulator.js';
import { makeAccount, type BuiltAccount } from '../../test/factories.js';
import { startTestApp, TestClock, type TestApp } from '../../test/harness.js';

// Issue 27 "Platform admin ... SMS settings": the platform admin puts an Alibaba Cloud SMS account
// of the platform's own in place of the environment's (YYP_SMS), or turns the codes off, and goes
// back to the environment's (PUT and DELETE admin/sms). The environment's service is the local
// simulator (sim); the platform's account is a second simulator of the same API with a key of its
// own, so where each message goes shows which account sent it.

let t: TestApp;
let env: SmsRuntime;
let own: SmsSimulator;
let admin: BuiltAccount;
const clock = new TestClock();
const silent = { info: () => undefined };

const KEY_ID = 'LTAI5tPlatformOwn01';
const KEY_SECRET = 'platform-own-secret-Zq8vX2mN4pL7';
const SIGN = '仁和医院';
const TEMPLATES = { resetPassword: 'SMS_465001001', bindMobile: 'SMS_465001002' };

beforeAll(async () => {
  env = await startSms(smsSettings({ YYP_SMS: 'sim' }), { log: silent, now: () => clock.now() });
  own = await startSmsSimulator({
    accessKeyId: KEY_ID,
    accessKeySecret: KEY_SECRET,
    signName: SIGN,
    templates: { [TEMPLATES.resetPassword]: '重置密码验证码${code}', [TEMPLATES.bindMobile]: '绑定验证码${code}' },
    now: () => clock.now(),
  });
  t = await startTestApp({ seed: false, clock, app: { sms: env.provider, smsStatus: env.status } });
  admin = await makeAccount(t, { platformAdmin: true });
});
afterAll(async () => {
  await t?.close();
  await env?.close();
  await own?.close();
});

let host = 1;
function client(token?: string, app: TestApp = t) {
  const remoteAddress = `203.0.113.${host++}`;
  return (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
    app.app.inject({
      method,
      url: `/yyp/api/v1/${path}`,
      remoteAddress,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}

let nextNumber = 13700000000;
const freshNumber = () => String(++nextNumber);
const account = () => ({
  mode: 'aliyun',
  accessKeyId: KEY_ID,
  accessKeySecret: KEY_SECRET,
  signName: SIGN,
  templates: TEMPLATES,
  region: 'cn-hangzhou',
  endpoint: own.url,
});
const savedRow = async () =>
  (
    (await t.db.database.db.execute(sql`select * from sms_accounts`)) as unknown as {
      rows: Record<string, unknown>[];
    }
  ).rows;

describe("the platform's own SMS account (PUT and DELETE admin/sms)", () => {
  it('takes the place of the environment’s: codes and test messages go through it, the secret sealed and never shown', async () => {
    const ask = client(admin.token);
    const saved = await ask('PUT', 'admin/sms', account());
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      mode: 'aliyun',
      source: 'platform',
      endpoint: own.url,
      signName: SIGN,
      templates: TEMPLATES,
      accessKeyId: 'LTAI****01',
      secretUnreadable: false,
      updatedAt: clock.now().toISOString(),
    });
    expect(saved.body).not.toContain(KEY_SECRET);
    expect((await ask('GET', 'admin/sms')).json()).toEqual(saved.json());

    const phone = freshNumber();
    expect((await ask('POST', 'admin/sms/test', { mobile: phone })).statusCode).toBe(204);
    expect(own.messages(phone)).toEqual([
      expect.objectContaining({ signName: SIGN, templateCode: TEMPLATES.bindMobile }),
    ]);
    expect(env.simulator!.messages(phone)).toEqual([]);

    // A doctor's bind code goes the same way, and binds.
    const doctor = await makeAccount(t);
    const mine = client(doctor.token);
    const number = freshNumber();
    expect((await mine('POST', 'accounts/me/code/bind-mobile', { mobile: number })).statusCode).toBe(204);
    const code = own.lastCode(number)!;
    expect(code).toMatch(/^\d{6}$/);
    expect((await mine('POST', 'accounts/me/mobile/bind', { mobile: number, code })).statusCode).toBe(200);

    const [row] = await savedRow();
    expect(String(row!.access_key_secret_sealed)).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(KEY_SECRET);
    const audits = (await t.db.database.db.execute(
      sql`select details from audit_logs where action = 'platform.sms_account' and actor_id = ${admin.accountId}`,
    )) as unknown as { rows: { details: Record<string, unknown> }[] };
    expect(audits.rows.at(-1)!.details).toMatchObject({
      mode: 'aliyun',
      accessKeyId: 'LTAI****01',
      secretChanged: true,
    });
    expect(JSON.stringify(audits.rows)).not.toContain(KEY_SECRET);
  });

  it('keeps the saved secret when it is left out for the same AccessKey ID, and asks for it for another', async () => {
    const ask = client(admin.token);
    expect((await ask('PUT', 'admin/sms', account())).statusCode).toBe(200);
    const { accessKeySecret: _left, ...withoutSecret } = account();
    const kept = await ask('PUT', 'admin/sms', { ...withoutSecret, signName: SIGN });
    expect(kept.statusCode).toBe(200);
    const phone = freshNumber();
    expect((await ask('POST', 'admin/sms/test', { mobile: phone })).statusCode).toBe(204);
    expect(own.messages(phone)).toHaveLength(1);

    const before = await savedRow();
    const other = await ask('PUT', 'admin/sms', { ...withoutSecret, accessKeyId: 'LTAI5tSomeoneElse9' });
    expect(other.statusCode).toBe(400);
    expect(other.json().details).toMatchObject({ field: 'accessKeySecret', problem: 'required' });
    expect(await savedRow()).toEqual(before);
  });

  it('refuses malformed accounts with a 400 and changes nothing', async () => {
    const ask = client(admin.token);
    expect((await ask('PUT', 'admin/sms', account())).statusCode).toBe(200);
    const before = await savedRow();
    const bad: unknown[] = [
      { ...account(), accessKeyId: 'short' },
      { ...account(), accessKeySecret: 'has space' },
      { ...account(), accessKeySecret: 'x'.repeat(101) },
      { ...account(), signName: '【仁和医院】' },
      { ...account(), templates: { ...TEMPLATES, bindMobile: '123456' } },
      { ...account(), templates: { resetPassword: TEMPLATES.resetPassword } },
      { ...account(), region: 'Hangzhou' },
      { ...account(), endpoint: 'http://sms.example.com' },
      { ...account(), endpoint: 'https://dysmsapi.aliyuncs.com/path?x=1' },
      { ...account(), endpoint: 'not a url' },
      { ...account(), extra: true },
      { mode: 'dev' },
      { mode: 'off', accessKeyId: KEY_ID },
      {},
    ];
    for (const body of bad) {
      const res = await ask('PUT', 'admin/sms', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('ValidationError');
    }
    expect(await savedRow()).toEqual(before);
  });

  it('turns the codes off, and goes back to the environment’s service', async () => {
    const ask = client(admin.token);
    const off = await ask('PUT', 'admin/sms', { mode: 'off' });
    expect(off.json()).toMatchObject({ mode: 'off', source: 'platform', accessKeyId: null });
    const test = await ask('POST', 'admin/sms/test', { mobile: freshNumber() });
    expect(test.statusCode).toBe(503);
    expect(test.json().code).toBe('ServiceNotConfigured');
    const doctor = await makeAccount(t);
    const refused = await client(doctor.token)('POST', 'accounts/me/code/bind-mobile', { mobile: freshNumber() });
    expect(refused.statusCode).toBe(503);
    // With no way to send a code, a number is set on the profile directly.
    const direct = await client(doctor.token)('PATCH', 'accounts/me', { mobile: '13811112222' });
    expect(direct.statusCode).toBe(200);

    const back = await ask('DELETE', 'admin/sms');
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ mode: 'sim', source: 'environment', updatedAt: null });
    expect(await savedRow()).toEqual([]);
    const phone = freshNumber();
    expect((await ask('POST', 'admin/sms/test', { mobile: phone })).statusCode).toBe(204);
    expect(env.simulator!.messages(phone)).toHaveLength(1);
  });

  it('takes effect on every instance at once', async () => {
    const second = await startTestApp({
      seed: false,
      clock,
      db: t.db,
      app: { sms: env.provider, smsStatus: env.status },
    });
    try {
      expect((await client(admin.token)('PUT', 'admin/sms', account())).statusCode).toBe(200);
      const phone = freshNumber();
      expect((await client(admin.token, second)('POST', 'admin/sms/test', { mobile: phone })).statusCode).toBe(204);
      expect(own.messages(phone)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('says so when the saved secret no longer opens (a new server secret), and sends nothing', async () => {
    expect((await client(admin.token)('PUT', 'admin/sms', account())).statusCode).toBe(200);
    const rekeyed = await startTestApp({
      seed: false,
      clock,
      db: t.db,
      app: {
        sms: env.provider,
        smsStatus: env.status,
        jwtSecret: new TextEncoder().encode('another-server-secret-0123456789abcdefgh'),
      },
    });
    try {
      const other = await makeAccount(rekeyed, { platformAdmin: true });
      const ask = client(other.token, rekeyed);
      expect((await ask('GET', 'admin/sms')).json()).toMatchObject({ source: 'platform', secretUnreadable: true });
      const test = await ask('POST', 'admin/sms/test', { mobile: freshNumber() });
      expect(test.statusCode).toBe(503);
    } finally {
      await rekeyed.close();
    }
  });

  it('is the platform admin’s alone', async () => {
    const doctor = await makeAccount(t, { canCreateGroup: true });
    const before = await savedRow();
    for (const [method, body] of [
      ['PUT', account()],
      ['DELETE', undefined],
    ] as const) {
      expect((await client(doctor.token)(method, 'admin/sms', body)).statusCode).toBe(403);
      expect((await client()(method, 'admin/sms', body)).statusCode).toBe(401);
    }
    expect(await savedRow()).toEqual(before);
  });
});
