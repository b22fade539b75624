import { SignJWT } from 'jose';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { makeAccount } from '../../test/factories.js';
import { DEMO_PW, startTestApp, TEST_SECRET, type TestApp } from '../../test/harness.js';
import { findAccountByUsername, setDisabled } from './accounts.store.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // Accounts with the password the cases type (Yyp@2026), none in any group.
  for (const username of ['doctor', 'senior', 'tech', 'registrar', 'notetaker', 'auditor', 'expert']) {
    await makeAccount(t, { username, password: DEMO_PW, signIn: false });
  }
});
afterAll(async () => {
  await t.close();
});

const login = (username: string, password: string) =>
  t.call('POST', 'accounts/login-in', { body: { username, password } });

describe('POST accounts/login-in', () => {
  it('answers Token info for a demo user, with the username trimmed', async () => {
    const res = await login('  doctor ', 'Yyp@2026');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.loginType).toBe('normal');
    expect(typeof body.accessToken).toBe('string');
    expect(body.expires).toBe(Math.floor(t.clock.now().getTime() / 1000) + 3600);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers one message whether or not the user exists', async () => {
    const wrong = await login('senior', 'not-the-password1');
    const unknown = await login('nobody-here', 'not-the-password1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().code).toBe('WrongCredentials');
    await login('senior', 'Yyp@2026'); // clears the failure count
  });

  it('refuses names with characters outside letters, digits, dash and underscore', async () => {
    const res = await login('li ming', 'whatever1');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('ValidationError');
  });

  it('locks the account for 30 minutes after 5 consecutive failures, even for the right password', async () => {
    for (let i = 1; i <= 4; i++) expect((await login('tech', `bad-pass-${i}`)).json().code).toBe('WrongCredentials');
    const fifth = await login('tech', 'bad-pass-5');
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json()).toMatchObject({ code: 'LoginLocked', details: { retryAfterSeconds: 1800 } });
    expect(fifth.json().message).toMatch(/30 minutes/);
    const right = await login('tech', 'Yyp@2026');
    expect(right.json().code).toBe('LoginLocked');
    t.clock.advance(29 * 60_000);
    expect((await login('tech', 'Yyp@2026')).json()).toMatchObject({
      code: 'LoginLocked',
      details: { retryAfterSeconds: 60 },
    });
    t.clock.advance(61_000);
    expect((await login('tech', 'Yyp@2026')).statusCode).toBe(200);
  });

  it('counts only consecutive failures: a success resets the count', async () => {
    for (let i = 0; i < 4; i++) await login('registrar', 'bad-pass-1');
    expect((await login('registrar', 'Yyp@2026')).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login('registrar', 'bad-pass-1')).json().code).toBe('WrongCredentials');
    expect((await login('registrar', 'Yyp@2026')).statusCode).toBe(200);
  });

  it('locks unknown names the same way, revealing nothing', async () => {
    for (let i = 0; i < 4; i++) await login('ghost-user', 'bad-pass-1');
    expect((await login('ghost-user', 'bad-pass-1')).json().code).toBe('LoginLocked');
  });

  it('keeps the lock in the database: a second instance on the same database refuses too', async () => {
    for (let i = 0; i < 5; i++) await login('notetaker', 'bad-pass-1');
    const second = await startTestApp({ db: t.db, clock: t.clock, seed: false });
    try {
      const res = await second.call('POST', 'accounts/login-in', {
        body: { username: 'notetaker', password: 'Yyp@2026' },
      });
      expect(res.json().code).toBe('LoginLocked');
    } finally {
      await second.app.close();
    }
  });

  it('refuses a disabled account (flag 1) and its existing tokens stop working', async () => {
    const token = await t.login('auditor');
    expect((await t.call('GET', 'accounts/me', { token })).statusCode).toBe(200);
    const row = await findAccountByUsername(t.db.database.db, 'auditor');
    await setDisabled(t.db.database.db, row!.id, 1, t.clock.now());
    const res = await login('auditor', 'Yyp@2026');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('AccountDisabled');
    const me = await t.call('GET', 'accounts/me', { token });
    expect(me.statusCode).toBe(401);
    expect(me.json().code).toBe('JsonWebTokenError');
    await setDisabled(t.db.database.db, row!.id, 0, t.clock.now());
    expect((await login('auditor', 'Yyp@2026')).statusCode).toBe(200);
    expect((await t.call('GET', 'accounts/me', { token })).statusCode).toBe(401);
  });

  it('writes audit rows for successes and failures, never the password', async () => {
    const rows = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(sql`${auditLogs.action} = 'account.login'`);
    expect(rows.some((r) => r.outcome === 'success' && r.actorUsername === 'doctor')).toBe(true);
    expect(rows.some((r) => r.outcome === 'failure' && r.actorUsername === 'senior')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain('not-the-password1');
  });
});

describe('bearer tokens', () => {
  it('answers 401 Unauthenticated without a token', async () => {
    const res = await t.call('GET', 'accounts/me');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('Unauthenticated');
  });

  it('answers TokenExpiredError for an expired token', async () => {
    const token = await t.login('expert');
    t.clock.advance(3601_000);
    const res = await t.call('GET', 'accounts/me', { token });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('TokenExpiredError');
  });

  it('answers JsonWebTokenError for malformed, forged and alg-none tokens', async () => {
    const token = await t.login('doctor');
    const [h, p] = token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    const wrongKey = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('whoever')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('some-other-secret-some-other-secret'));
    for (const bad of ['abc', `${h}.${p}.AAAA`, none, wrongKey, 'Bearer']) {
      const res = await t.call('GET', 'accounts/me', { token: bad });
      expect(res.statusCode, bad).toBe(401);
      expect(res.json().code, bad).toBe('JsonWebTokenError');
    }
    const empty = await t.call('GET', 'accounts/me', { headers: { authorization: 'Bearer ' } });
    expect(empty.json().code).toBe('JsonWebTokenError');
  });

  it('refuses a well-signed token for an account that does not exist', async () => {
    const ghost = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('00000000-0000-0000-0000-000000000000')
      .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 60)
      .sign(TEST_SECRET);
    expect((await t.call('GET', 'accounts/me', { token: ghost })).json().code).toBe('JsonWebTokenError');
  });

  it('lets public calls through with or without a token', async () => {
    expect((await t.call('GET', 'domain')).statusCode).toBe(200);
    expect((await t.call('GET', 'domain', { token: 'garbage' })).statusCode).toBe(200);
  });
});
