import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.js';
import { makeAccount } from '../../test/factories.js';
import { DEMO_PW, startTestApp, TEST_SECRET, type TestApp } from '../../test/harness.js';
import { findAccountByUsername } from './accounts.store.js';

// Issue 19 §6: sessions end on the server (logout, inactivity), on every instance.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // The accounts the cases sign in as (t.login's default password), and the platform admin.
  await makeAccount(t, { username: 'admin', password: DEMO_PW, platformAdmin: true, signIn: false });
  for (const username of ['doctor', 'senior', 'tech', 'registrar', 'notetaker', 'expert', 'teledoctor', 'auditor']) {
    await makeAccount(t, { username, password: DEMO_PW, signIn: false });
  }
});
afterAll(async () => {
  await t.close();
});

const me = (token: string) => t.call('GET', 'accounts/me', { token });
const jtiOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti?: string }).jti;

async function setMaxInactive(minutes: number): Promise<void> {
  const admin = await t.login('admin');
  const res = await t.call('PUT', 'domain', { token: admin, body: { maxInactiveMinutes: minutes } });
  expect(res.statusCode).toBe(200);
  await t.call('POST', 'accounts/logout', { token: admin });
}

describe('tokens', () => {
  it('carry a unique id, recorded as a session of their account', async () => {
    const a = await t.login('doctor');
    const b = await t.login('doctor');
    expect(jtiOf(a)).toEqual(expect.any(String));
    expect(jtiOf(a)).not.toBe(jtiOf(b));
    const [row] = await t.db.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, jtiOf(a)!));
    const doctor = await findAccountByUsername(t.db.database.db, 'doctor');
    expect(row).toMatchObject({ accountId: doctor!.id, revokedAt: null, createdAt: t.clock.now() });
    expect(row!.expiresAt.getTime()).toBe(t.clock.now().getTime() + 3600_000);
  });

  it('without an id (as issued before sessions existed) are refused', async () => {
    const doctor = await findAccountByUsername(t.db.database.db, 'doctor');
    const legacy = await new SignJWT({ tv: doctor!.tokenVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(doctor!.id)
      .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 600)
      .sign(TEST_SECRET);
    const res = await me(legacy);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('JsonWebTokenError');
  });

  it('with an id the server never issued answer TokenExpiredError', async () => {
    const doctor = await findAccountByUsername(t.db.database.db, 'doctor');
    const unknown = await new SignJWT({ tv: doctor!.tokenVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(doctor!.id)
      .setJti('never-issued')
      .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 600)
      .sign(TEST_SECRET);
    expect((await me(unknown)).json().code).toBe('TokenExpiredError');
  });
});

describe('POST accounts/logout', () => {
  it('refuses the token at once with TokenExpiredError; other sessions of the user go on', async () => {
    const first = await t.login('senior');
    const second = await t.login('senior');
    const out = await t.call('POST', 'accounts/logout', { token: first });
    expect(out.statusCode).toBe(204);
    for (const res of [await me(first), await t.call('GET', 'accounts/me/permissions', { token: first })]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('TokenExpiredError');
    }
    expect((await t.call('POST', 'accounts/logout', { token: first })).json().code).toBe('TokenExpiredError');
    expect((await me(second)).statusCode).toBe(200);
    const [row] = await t.db.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, jtiOf(first)!));
    expect(row!.revokedAt).toEqual(t.clock.now());
  });

  it('needs a token', async () => {
    const res = await t.call('POST', 'accounts/logout');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('Unauthenticated');
  });

  it('is seen at once by a second instance on the same database', async () => {
    const second = await startTestApp({ db: t.db, clock: t.clock, seed: false });
    try {
      const token = await t.login('tech');
      const onSecond = () => second.call('GET', 'accounts/me', { token });
      expect((await onSecond()).statusCode).toBe(200);
      expect((await t.call('POST', 'accounts/logout', { token })).statusCode).toBe(204);
      const res = await onSecond();
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('TokenExpiredError');
    } finally {
      await second.app.close();
    }
  });
});

describe("the domain's maxInactiveMinutes", () => {
  it('refuses a token idle longer than the limit with TokenExpiredError', async () => {
    await setMaxInactive(5);
    try {
      const token = await t.login('registrar');
      t.clock.advance(4 * 60_000);
      expect((await me(token)).statusCode).toBe(200);
      // Activity is recorded to the minute: refused once 5 minutes (+ that minute) pass without any.
      t.clock.advance(6 * 60_000 + 1000);
      const res = await me(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('TokenExpiredError');
      // Activity does not revive it.
      expect((await me(token)).json().code).toBe('TokenExpiredError');
    } finally {
      await setMaxInactive(0);
    }
  });

  it('keeps a session alive while it is used within the limit, on any instance', async () => {
    await setMaxInactive(5);
    const second = await startTestApp({ db: t.db, clock: t.clock, seed: false });
    try {
      const token = await t.login('notetaker');
      for (let i = 0; i < 6; i++) {
        t.clock.advance(4 * 60_000);
        const app = i % 2 === 0 ? t : second;
        expect((await app.call('GET', 'accounts/me', { token })).statusCode, `step ${i}`).toBe(200);
      }
      // 24 minutes since login, never idle for 5: still signed in.
      t.clock.advance(4 * 60_000);
      expect((await me(token)).statusCode).toBe(200);
    } finally {
      await second.app.close();
      await setMaxInactive(0);
    }
  });

  it('sets no idle limit when 0', async () => {
    await setMaxInactive(0);
    const token = await t.login('expert');
    t.clock.advance(55 * 60_000);
    expect((await me(token)).statusCode).toBe(200);
  });

  it('writes activity at most once a minute per session', async () => {
    const token = await t.login('teledoctor');
    const lastSeen = async () =>
      (
        await t.db.database.db
          .select()
          .from(sessions)
          .where(eq(sessions.id, jtiOf(token)!))
      )[0]!.lastSeenAt;
    const loggedInAt = t.clock.now();
    t.clock.advance(30_000);
    await me(token);
    expect(await lastSeen()).toEqual(loggedInAt);
    t.clock.advance(31_000);
    await me(token);
    expect(await lastSeen()).toEqual(t.clock.now());
  });
});

describe('expired sessions', () => {
  it('are purged by a later login', async () => {
    const token = await t.login('auditor');
    t.clock.advance(3600_000 + 10 * 60_000);
    await t.login('auditor');
    const rows = await t.db.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, jtiOf(token)!));
    expect(rows).toEqual([]);
  });
});
