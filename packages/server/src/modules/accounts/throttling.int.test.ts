import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount } from '../../test/factories.js';
import { DEMO_PW, startTestApp, type TestApp } from '../../test/harness.js';

// Issue 19 §5: per-address rate limits (429 with Retry-After) and a lockout nobody can trigger
// against another person at will. Each case uses client addresses of its own.

let t: TestApp;
/** Accounts with the password the cases type (DEMO_PW), in a domain open to registration. */
async function withAccounts(app: TestApp, usernames: string[]): Promise<void> {
  for (const username of usernames) await makeAccount(app, { username, password: DEMO_PW, signIn: false });
  const admin = await makeAccount(app, { platformAdmin: true });
  const open = await app.call('PUT', 'domain', { token: admin.token, body: { allowRegistration: true } });
  expect(open.statusCode, open.body).toBe(200);
}
beforeAll(async () => {
  t = await startTestApp({ seed: false });
  await withAccounts(t, ['doctor', 'senior', 'tech', 'registrar', 'expert', 'notetaker']);
});
afterAll(async () => {
  await t.close();
});

const from =
  (remoteAddress: string) =>
  (method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url: `/yyp/api/v1/${url}`,
      remoteAddress,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
const login = (address: string, username: string, password: string) =>
  from(address)('POST', 'accounts/login-in', { username, password });

function expectThrottled(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(429);
  const body = res.json();
  expect(body).toEqual({
    code: 'TooManyRequests',
    message: expect.any(String),
    details: { retryAfterSeconds: expect.any(Number) },
  });
  expect(body.details.retryAfterSeconds).toBeGreaterThan(0);
  expect(res.headers['retry-after']).toBe(String(body.details.retryAfterSeconds));
  return body.details.retryAfterSeconds as number;
}

describe('login attempts from one address', () => {
  it('100 logins with different names are throttled with 429 and Retry-After well before the 100th', async () => {
    const statuses: number[] = [];
    let first429: LightMyRequestResponse | undefined;
    for (let i = 0; i < 100; i++) {
      const res = await login('203.0.113.10', `guess-${i}`, 'Summer2026!');
      statuses.push(res.statusCode);
      first429 ??= res.statusCode === 429 ? res : undefined;
    }
    const firstIndex = statuses.indexOf(429);
    expect(firstIndex).toBeGreaterThan(0);
    expect(firstIndex).toBeLessThan(99);
    expect(statuses.slice(0, firstIndex).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(firstIndex).every((s) => s === 429)).toBe(true);
    const retryAfter = expectThrottled(first429!);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Even the right password of a real account waits; another address is not affected.
    expectThrottled(await login('203.0.113.10', 'doctor', DEMO_PW));
    expect((await login('203.0.113.11', 'doctor', DEMO_PW)).statusCode).toBe(200);
    // The expired-password path checks a password too: throttled alike.
    expectThrottled(
      await from('203.0.113.10')('POST', 'accounts/update-password', {
        username: 'doctor',
        oldPwd: DEMO_PW,
        newPwd: 'Heron#2026x',
      }),
    );
    t.clock.advance(retryAfter * 1000);
    expect((await login('203.0.113.10', 'doctor', DEMO_PW)).statusCode).toBe(200);
  });

  it('lets a ward behind one address sign in 60 times a minute, then asks it to wait', async () => {
    const ward = ['doctor', 'senior', 'tech', 'registrar', 'expert', 'notetaker'];
    for (let i = 0; i < 60; i++) {
      expect((await login('203.0.113.20', ward[i % ward.length]!, DEMO_PW)).statusCode, `login ${i}`).toBe(200);
    }
    const retryAfter = expectThrottled(await login('203.0.113.20', 'doctor', DEMO_PW));
    expect(retryAfter).toBeLessThanOrEqual(60);
    t.clock.advance(retryAfter * 1000);
    expect((await login('203.0.113.20', 'doctor', DEMO_PW)).statusCode).toBe(200);
  });

  it('failures at a shared address do not keep out a name that signed in from it before', async () => {
    const ward = '203.0.113.30';
    expect((await login(ward, 'senior', DEMO_PW)).statusCode).toBe(200);
    let throttled: LightMyRequestResponse | undefined;
    for (let i = 0; i < 40 && !throttled; i++) {
      const res = await login(ward, `typo-${i}`, 'Summer2026!');
      if (res.statusCode === 429) throttled = res;
    }
    expectThrottled(throttled!);
    // A name new to the address waits; the one that signed in here before does not.
    expectThrottled(await login(ward, 'doctor', DEMO_PW));
    expect((await login(ward, 'senior', DEMO_PW)).statusCode).toBe(200);
    // Its wrong passwords still count towards its own lockout at this address.
    expect((await login(ward, 'senior', 'Wrong#2026')).statusCode).toBe(401);
  });
});

describe('the 30-minute lockout (spec 000 §9)', () => {
  it('locks a name at the address that failed 5 times, even for the right password, for 30 minutes', async () => {
    for (let i = 1; i <= 4; i++) expect((await login('198.51.100.1', 'senior', `bad-${i}`)).statusCode).toBe(401);
    const fifth = await login('198.51.100.1', 'senior', 'bad-5');
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json()).toMatchObject({ code: 'LoginLocked', details: { retryAfterSeconds: 1800 } });
    expect(fifth.headers['retry-after']).toBe('1800');
    expect((await login('198.51.100.1', 'senior', DEMO_PW)).json().code).toBe('LoginLocked');
    t.clock.advance(30 * 60_000);
    expect((await login('198.51.100.1', 'senior', DEMO_PW)).statusCode).toBe(200);
  });

  it("an attacker failing on 'doctor' at address A cannot stop 'doctor' logging in from address B", async () => {
    for (let i = 1; i <= 5; i++) await login('192.0.2.66', 'doctor', `guess-${i}`);
    expect((await login('192.0.2.66', 'doctor', DEMO_PW)).json().code).toBe('LoginLocked');
    expect((await login('192.0.2.100', 'doctor', DEMO_PW)).statusCode).toBe(200);
    // Further tries from A stay refused and count nothing against the doctor elsewhere.
    for (let i = 0; i < 10; i++) expect((await login('192.0.2.66', 'doctor', 'x-guess-1')).statusCode).toBe(423);
    expect((await login('192.0.2.101', 'doctor', DEMO_PW)).statusCode).toBe(200);
    t.clock.advance(30 * 60_000);
  });

  it('stops guessing spread over many addresses, except from addresses the account signed in from', async () => {
    // The registrar works at 192.0.2.200.
    expect((await login('192.0.2.200', 'registrar', DEMO_PW)).statusCode).toBe(200);
    // Attackers at four addresses fail five times each: 20 failures of the name.
    for (let a = 1; a <= 4; a++) {
      for (let i = 1; i <= 5; i++) await login(`192.0.2.${10 + a}`, 'registrar', `spray-${a}-${i}`);
    }
    // A fifth attacking address, even with the right password, is refused…
    const fresh = await login('192.0.2.15', 'registrar', DEMO_PW);
    expect(fresh.statusCode).toBe(423);
    expect(fresh.json().code).toBe('LoginLocked');
    // …while the registrar's own address still works.
    expect((await login('192.0.2.200', 'registrar', DEMO_PW)).statusCode).toBe(200);
    t.clock.advance(30 * 60_000);
    expect((await login('192.0.2.15', 'registrar', DEMO_PW)).statusCode).toBe(200);
  });
});

describe('registration, SMS codes and password reset', () => {
  it('registration: 10 attempts an hour per address', async () => {
    const register = from('203.0.113.30');
    for (let i = 0; i < 10; i++) {
      // Refused attempts cost little, but count.
      const res = await register('POST', 'accounts', { username: `newcomer-${i}`, password: 'password1', name: 'x' });
      expect(res.json().code, `attempt ${i}`).toBe('PasswordTooSimple');
    }
    const over = await register('POST', 'accounts', { username: 'late-newcomer', password: 'Heron#2026x', name: 'x' });
    expect(expectThrottled(over)).toBeLessThanOrEqual(3600);
    const elsewhere = from('203.0.113.31');
    expect(
      (await elsewhere('POST', 'accounts', { username: 'newcomer-b', password: 'Heron#2026x', name: 'x' })).statusCode,
    ).toBe(201);
  });

  it('SMS codes: one a minute per name, ten an hour per address', async () => {
    const sms = from('203.0.113.40');
    expect((await sms('POST', 'accounts/senior/code/reset-password')).json().code).toBe('ServiceNotConfigured');
    expect(expectThrottled(await sms('POST', 'accounts/senior/code/reset-password'))).toBeLessThanOrEqual(60);
    // The name is protected from every address.
    expectThrottled(await from('203.0.113.41')('POST', 'accounts/senior/code/reset-password'));
    // Refused calls count too: 2 so far, 8 more make the address's ten.
    for (let i = 0; i < 8; i++) {
      expect((await sms('POST', `accounts/name-${i}/code/reset-password`)).statusCode, `name ${i}`).toBe(503);
    }
    expectThrottled(await sms('POST', 'accounts/name-8/code/reset-password'));
  });

  it('password reset with a code: five tries an hour per name', async () => {
    const reset = (address: string) =>
      from(address)('POST', 'accounts/expert/password/reset', { code: '123456', password: 'Heron#2026x' });
    for (let i = 0; i < 5; i++) expect((await reset(`203.0.113.${50 + i}`)).statusCode).toBe(503);
    expectThrottled(await reset('203.0.113.59'));
  });
});

describe('RATE_LIMIT_MULTIPLIER', () => {
  it('0 turns the per-address limits off (benchmarks, trusted networks); the lockout stays', async () => {
    const open = await startTestApp({ rateLimitMultiplier: 0, seed: false });
    try {
      await withAccounts(open, ['tech']);
      for (let i = 0; i < 32; i++) {
        const res = await open.call('POST', 'accounts/login-in', { body: { username: `n-${i}`, password: 'x-123' } });
        expect(res.statusCode, `attempt ${i}`).toBe(401);
      }
      for (let i = 0; i < 5; i++) {
        await open.call('POST', 'accounts/login-in', { body: { username: 'tech', password: 'x-1' } });
      }
      const locked = await open.call('POST', 'accounts/login-in', { body: { username: 'tech', password: DEMO_PW } });
      expect(locked.json().code).toBe('LoginLocked');
    } finally {
      await open.close();
    }
  }, 90_000);
});
