import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SMS_CODE_MAX_TRIES, SMS_CODE_TTL_SECONDS } from '@yyp/contracts';
import { smsSettings, startSms, type SmsRuntime } from '../../platform/sms/index.js';
import { makeAccount } from '../../test/factories.js';
import { startTestApp, TestClock, type TestApp } from '../../test/harness.js';

// Issue 27 "Mobile": bind a number with an SMS code, reset a forgotten password by code; codes are
// six digits, live five minutes, allow five tries; sending is limited per number and per client.
// The codes go through the real Alibaba Cloud SMS adapter to the local simulator of its API.

let t: TestApp;
let sms: SmsRuntime;
const clock = new TestClock();
const silent = { info: () => undefined };

beforeAll(async () => {
  sms = await startSms(smsSettings({ YYP_SMS: 'sim' }), { log: silent, now: () => clock.now() });
  t = await startTestApp({ seed: false, clock, app: { sms: sms.provider, smsStatus: sms.status } });
});
afterAll(async () => {
  await t?.close();
  await sms?.close();
});

// Each case asks from an address of its own (sending is limited to ten an hour per address).
let host = 1;
function client(token?: string) {
  const remoteAddress = `198.51.100.${host++}`;
  return (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/yyp/api/v1/${path}`,
      remoteAddress,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}

let nextNumber = 13900000000;
const freshNumber = () => String(++nextNumber);
const codeFor = (phone: string) => {
  const code = sms.simulator!.lastCode(phone);
  if (!code) throw new Error(`no code reached ${phone}`);
  return code;
};
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function bound(phone = freshNumber()) {
  const account = await makeAccount(t);
  const ask = client(account.token);
  expect((await ask('POST', 'accounts/me/code/bind-mobile', { mobile: phone })).statusCode).toBe(204);
  const res = await ask('POST', 'accounts/me/mobile/bind', { mobile: phone, code: codeFor(phone) });
  expect(res.statusCode).toBe(200);
  return { ...account, phone };
}

const mobileOf = async (accountId: string) =>
  (
    (await t.db.database.db.execute(sql`select mobile from accounts where id = ${accountId}`)) as unknown as {
      rows: { mobile: string | null }[];
    }
  ).rows[0]?.mobile ?? null;

describe('binding a mobile number', () => {
  it('sends a six-digit code to the number and binds it with that code, once', async () => {
    const account = await makeAccount(t);
    const ask = client(account.token);
    const phone = freshNumber();
    expect((await ask('POST', 'accounts/me/code/bind-mobile', { mobile: phone })).statusCode).toBe(204);
    const code = codeFor(phone);
    expect(code).toMatch(/^[0-9]{6}$/);
    expect(sms.simulator!.messages(phone)[0]).toMatchObject({ templateCode: 'SMS_000000002', signName: 'yyp' });

    const res = await ask('POST', 'accounts/me/mobile/bind', { mobile: phone, code });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: account.accountId, mobile: phone });
    expect((await ask('GET', 'accounts/me')).json().mobile).toBe(phone);
    // Used: the same code again is refused.
    const again = await ask('POST', 'accounts/me/mobile/bind', { mobile: phone, code });
    expect(again.json()).toMatchObject({ code: 'VerificationCodeExpired', details: { reason: 'none' } });
  });

  it('refuses a wrong code, counting the tries, and a code for another number', async () => {
    const account = await makeAccount(t);
    const ask = client(account.token);
    const phone = freshNumber();
    await ask('POST', 'accounts/me/code/bind-mobile', { mobile: phone });
    const code = codeFor(phone);
    const wrong = await ask('POST', 'accounts/me/mobile/bind', { mobile: phone, code: otherCode(code) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'VerificationCodeIncorrect', details: { triesLeft: 4 } });
    const elsewhere = await ask('POST', 'accounts/me/mobile/bind', { mobile: freshNumber(), code });
    expect(elsewhere.json()).toMatchObject({ code: 'VerificationCodeIncorrect', details: { triesLeft: 3 } });
    expect(await mobileOf(account.accountId)).toBeNull();
    expect((await ask('POST', 'accounts/me/mobile/bind', { mobile: phone, code })).statusCode).toBe(200);
  });

  it('allows five tries: after them even the right code is refused until a new one is sent', async () => {
    const account = await makeAccount(t);
    const ask = client(account.token);
    const phone = freshNumber();
    await ask('POST', 'accounts/me/code/bind-mobile', { mobile: phone });
    const code = codeFor(phone);
    for (let i = 1; i <= SMS_CODE_MAX_TRIES; i++) {
      const res = await ask('POST', 'accounts/me/mobile/bind', { mobile: phone, code: otherCode(code) });
      if (i < SMS_CODE_MAX_TRIES) {
        expect(res.json(), `try ${i}`).toMatchObject({ details: { triesLeft: SMS_CODE_MAX_TRIES - i } });
      } else {
        expect(res.json()).toMatchObject({ code: 'VerificationCodeExpired', details: { reason: 'tooManyTries' } });
      }
    }
    const right = await ask('POST', 'accounts/me/mobile/bind', { mobile: phone, code });
    expect(right.json()).toMatchObject({ code: 'VerificationCodeExpired', details: { reason: 'tooManyTries' } });
    expect(await mobileOf(account.accountId)).toBeNull();
    // A new code (a minute later: one a minute per number) starts again.
    clock.advance(61_000);
    expect((await ask('POST', 'accounts/me/code/bind-mobile', { mobile: phone })).statusCode).toBe(204);
    const fresh = codeFor(phone);
    expect((await ask('POST', 'accounts/me/mobile/bind', { mobile: phone, code: fresh })).statusCode).toBe(200);
  });

  it('lets a code live five minutes', async () => {
    const account = await makeAccount(t);
    const ask = client(account.token);
    const phone = freshNumber();
    await ask('POST', 'accounts/me/code/bind-mobile', { mobile: phone });
    clock.advance(SMS_CODE_TTL_SECONDS * 1000);
    const res = await ask('POST', 'accounts/me/mobile/bind', { mobile: phone, code: codeFor(phone) });
    expect(res.json()).toMatchObject({ code: 'VerificationCodeExpired', details: { reason: 'expired' } });
  });

  it('sends one code a minute to a number, whoever asks, and answers when to retry', async () => {
    const phone = freshNumber();
    const first = client((await makeAccount(t)).token);
    expect((await first('POST', 'accounts/me/code/bind-mobile', { mobile: phone })).statusCode).toBe(204);
    const second = await client((await makeAccount(t)).token)('POST', 'accounts/me/code/bind-mobile', {
      mobile: phone,
    });
    expect(second.statusCode).toBe(429);
    expect(second.json().code).toBe('TooManyRequests');
    expect(Number(second.headers['retry-after'] ?? second.json().details.retryAfterSeconds)).toBeLessThanOrEqual(60);
    expect(sms.simulator!.messages(phone)).toHaveLength(1);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const account = await makeAccount(t);
    const ask = client(account.token);
    for (const mobile of ['', '12', '23900000000', '139000000001', '+0861390000', '1390000000a', 139]) {
      const res = await ask('POST', 'accounts/me/code/bind-mobile', { mobile });
      expect(res.statusCode, String(mobile)).toBe(400);
    }
    const phone = freshNumber();
    for (const body of [{ mobile: phone }, { mobile: phone, code: '12345' }, { mobile: phone, code: 'abcdef' }]) {
      expect((await ask('POST', 'accounts/me/mobile/bind', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await ask('POST', 'accounts/me/mobile/bind', { mobile: phone, code: '123456', extra: 1 })).statusCode).toBe(
      400,
    );
    expect(sms.simulator!.messages(phone)).toHaveLength(0);
    expect(await mobileOf(account.accountId)).toBeNull();
  });

  it('needs a signed-in caller', async () => {
    const ask = client();
    expect((await ask('POST', 'accounts/me/code/bind-mobile', { mobile: freshNumber() })).statusCode).toBe(401);
    expect((await ask('POST', 'accounts/me/mobile/bind', { mobile: freshNumber(), code: '123456' })).statusCode).toBe(
      401,
    );
  });

  it('no longer sets a new number through the profile, but removes one', async () => {
    const account = await bound();
    const ask = client(account.token);
    const change = await ask('PATCH', 'accounts/me', { mobile: freshNumber() });
    expect(change.statusCode).toBe(400);
    expect(change.json().code).toBe('MobileChangeNeedsCode');
    expect(await mobileOf(account.accountId)).toBe(account.phone);
    expect((await ask('PATCH', 'accounts/me', { mobile: account.phone, name: 'Same number' })).statusCode).toBe(200);
    expect((await ask('PATCH', 'accounts/me', { mobile: null })).statusCode).toBe(200);
    expect(await mobileOf(account.accountId)).toBeNull();
  });
});

describe('resetting a forgotten password by code', () => {
  it('sends the code to the bound number; the new password works and every earlier session ends', async () => {
    const account = await bound();
    clock.advance(61_000);
    const ask = client();
    expect((await ask('GET', `accounts/${account.username}/mobile`)).json().mobile).toContain('****');
    expect((await ask('POST', `accounts/${account.username}/code/reset-password`)).statusCode).toBe(204);
    const code = codeFor(account.phone);
    expect(sms.simulator!.messages(account.phone)[0]).toMatchObject({ templateCode: 'SMS_000000001' });
    const res = await ask('POST', `accounts/${account.username}/password/reset`, { code, password: 'Kestrel#4821' });
    expect(res.statusCode).toBe(204);
    expect((await client(account.token)('GET', 'accounts/me')).statusCode).toBe(401);
    expect((await t.login(account.username, 'Kestrel#4821')).length).toBeGreaterThan(20);
    const again = await ask('POST', `accounts/${account.username}/password/reset`, { code, password: 'Kestrel#4822' });
    expect(again.json().code).toBe('VerificationCodeExpired');
  });

  it('does not use the code up on a password that is too simple', async () => {
    const account = await bound();
    clock.advance(61_000);
    const ask = client();
    await ask('POST', `accounts/${account.username}/code/reset-password`);
    const code = codeFor(account.phone);
    const simple = await ask('POST', `accounts/${account.username}/password/reset`, { code, password: 'password1' });
    expect(simple.json().code).toBe('PasswordTooSimple');
    const res = await ask('POST', `accounts/${account.username}/password/reset`, { code, password: 'Osprey#5531' });
    expect(res.statusCode).toBe(204);
  });

  it('keeps the old password after wrong codes and records the refusals', async () => {
    const account = await bound();
    clock.advance(61_000);
    const ask = client();
    await ask('POST', `accounts/${account.username}/code/reset-password`);
    const code = codeFor(account.phone);
    const wrong = await ask('POST', `accounts/${account.username}/password/reset`, {
      code: otherCode(code),
      password: 'Osprey#5532',
    });
    expect(wrong.json()).toMatchObject({ code: 'VerificationCodeIncorrect', details: { triesLeft: 4 } });
    expect((await t.login(account.username, account.password)).length).toBeGreaterThan(20);
    const audit = (await t.db.database.db.execute(
      sql`select action, outcome from audit_logs where actor_id = ${account.accountId} order by id`,
    )) as unknown as { rows: { action: string; outcome: string }[] };
    expect(audit.rows).toEqual(
      expect.arrayContaining([
        { action: 'account.sms_code', outcome: 'success' },
        { action: 'account.bind_mobile', outcome: 'success' },
        { action: 'account.reset_password', outcome: 'failure' },
      ]),
    );
  });

  it('says clearly when the account has no number, and sends nothing for unknown names', async () => {
    const account = await makeAccount(t);
    const ask = client();
    const none = await ask('POST', `accounts/${account.username}/code/reset-password`);
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('MobileNotBound');
    expect((await ask('POST', 'accounts/no-such-person/code/reset-password')).json().code).toBe('MobileNotBound');
    const reset = await ask('POST', 'accounts/no-such-person/password/reset', {
      code: '123456',
      password: 'Osprey#5533',
    });
    expect(reset.json().code).toBe('VerificationCodeExpired');
  });
});

describe('when the SMS service fails', () => {
  it('answers 502 SmsNotSent and keeps no code', async () => {
    const broken = await startSms(smsSettings({ YYP_SMS: 'sim' }), { log: silent, now: () => clock.now() });
    await broken.close();
    const down = await startTestApp({ seed: false, clock, db: t.db, app: { sms: broken.provider } });
    try {
      const account = await makeAccount(down);
      const res = await down.app.inject({
        method: 'POST',
        url: '/yyp/api/v1/accounts/me/code/bind-mobile',
        remoteAddress: '198.51.100.250',
        headers: { authorization: `Bearer ${account.token}` },
        payload: { mobile: freshNumber() },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('SmsNotSent');
      const left = (await t.db.database.db.execute(
        sql`select count(*)::int as n from verification_codes where account_id = ${account.accountId}`,
      )) as unknown as { rows: { n: number }[] };
      expect(left.rows[0]!.n).toBe(0);
    } finally {
      await down.close();
    }
  });
});

describe('the SMS service on /settings/admin (platform admin)', () => {
  it('shows the service in effect without its secret, to the platform admin only', async () => {
    const admin = await makeAccount(t, { platformAdmin: true });
    const res = await client(admin.token)('GET', 'admin/sms');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      mode: 'sim',
      signName: 'yyp',
      templates: { resetPassword: 'SMS_000000001', bindMobile: 'SMS_000000002' },
      accessKeyId: expect.stringMatching(/^LTAI\*{4}[0-9a-f]{2}$/),
      inboxUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/inbox$/),
    });
    const doctor = await makeAccount(t);
    expect((await client(doctor.token)('GET', 'admin/sms')).statusCode).toBe(403);
    expect((await client()('GET', 'admin/sms')).statusCode).toBe(401);
  });

  it('sends a test message, audits it with the number masked, and meets the limit per number', async () => {
    const admin = await makeAccount(t, { platformAdmin: true });
    const ask = client(admin.token);
    const phone = freshNumber();
    expect((await ask('POST', 'admin/sms/test', { mobile: phone })).statusCode).toBe(204);
    expect(sms.simulator!.messages(phone)).toHaveLength(1);
    expect(sms.simulator!.messages(phone)[0]).toMatchObject({ templateCode: 'SMS_000000002', signName: 'yyp' });
    const again = await ask('POST', 'admin/sms/test', { mobile: phone });
    expect(again.statusCode).toBe(429);
    expect(sms.simulator!.messages(phone)).toHaveLength(1);
    const rows = (await t.db.database.db.execute(
      sql`select outcome, details from audit_logs where action = 'platform.sms_test' and actor_id = ${admin.accountId}`,
    )) as unknown as { rows: { outcome: string; details: { mobile: string } }[] };
    expect(rows.rows).toEqual([
      { outcome: 'success', details: expect.objectContaining({ mobile: expect.stringContaining('****') }) },
    ]);
    expect(JSON.stringify(rows.rows)).not.toContain(phone);
    const bad = await ask('POST', 'admin/sms/test', { mobile: '12345' });
    expect(bad.statusCode).toBe(400);
    const doctor = await makeAccount(t);
    expect((await client(doctor.token)('POST', 'admin/sms/test', { mobile: freshNumber() })).statusCode).toBe(403);
  });

  it('says the service is off where there is none', async () => {
    const off = await startTestApp({ seed: false, clock, db: t.db, app: { sms: null } });
    try {
      const admin = await makeAccount(off, { platformAdmin: true });
      const ask = (method: 'GET' | 'POST', path: string, payload?: object) =>
        off.app.inject({
          method,
          url: `/yyp/api/v1/${path}`,
          remoteAddress: '198.51.100.251',
          headers: { authorization: `Bearer ${admin.token}` },
          ...(payload ? { payload } : {}),
        });
      expect((await ask('GET', 'admin/sms')).json()).toMatchObject({ mode: 'off', endpoint: null, accessKeyId: null });
      const test = await ask('POST', 'admin/sms/test', { mobile: freshNumber() });
      expect(test.statusCode).toBe(503);
      expect(test.json().code).toBe('ServiceNotConfigured');
    } finally {
      await off.close();
    }
  });
});
