import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, sessions } from '../../db/schema.js';
import { loadCallerScope } from '../../platform/access.js';
import {
  joinOrganization,
  makeAccount,
  makeMember,
  makeOrganization,
  signIn,
  type BuiltAccount,
} from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { findAccountByUsername, findAccountWithSession, updateProfile } from './accounts.store.js';

// Issue 20 item 16: the sign-in check runs as a named prepared statement on both databases (on
// PGlite through platform/pglite-prepared.ts); it must answer what plain drizzle selects answer.

let t: TestApp;
let admin: BuiltAccount;
let doctorAccount: BuiltAccount;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
  admin = await makeAccount(t, { platformAdmin: true, signIn: false });
  // A doctor in two organizations of a group.
  const rad = await makeOrganization(t);
  const us = await makeOrganization(t, { groupId: rad.groupId });
  doctorAccount = await makeMember(t, rad.bucketId, {
    username: 'doctor',
    actions: ['exam_get', 'report_upsert'],
    signIn: false,
  });
  await joinOrganization(t, us.bucketId, doctorAccount.accountId, { actions: ['exam_get'] });
});
afterAll(async () => {
  await t.close();
});

const jtiOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti;

describe('findAccountWithSession (the per-request sign-in check)', () => {
  it('answers the account, its scope and its session as drizzle selects them', async () => {
    const db = t.db.database.db;
    const adminToken = await signIn(t, admin);
    expect((await t.call('PUT', 'domain', { token: adminToken, body: { maxInactiveMinutes: 30 } })).statusCode).toBe(
      200,
    );
    const token = await signIn(t, doctorAccount);
    const doctor = (await findAccountByUsername(db, 'doctor'))!;
    // Json, text and timestamp columns with values, not only their defaults.
    await updateProfile(db, doctor.id, { mobile: '13800000000', preferences: { language: 'en' } }, t.clock.now());
    await db
      .update(accounts)
      .set({ passwordChangedAt: new Date('2026-01-02T03:04:05.678Z'), domainName: { en: 'Doctor', chs: '医生' } })
      .where(eq(accounts.id, doctor.id));

    // Twice: the first call prepares the statement, the second only binds and executes it.
    for (let i = 0; i < 2; i++) {
      const found = await findAccountWithSession(db, doctor.id, jtiOf(token));
      const [account] = await db.select().from(accounts).where(eq(accounts.id, doctor.id));
      const [session] = await db
        .select()
        .from(sessions)
        .where(eq(sessions.id, jtiOf(token)));
      const scope = await loadCallerScope(db, doctor.id);
      expect(found).toEqual({
        account,
        scope,
        session: { found: true, lastSeenAt: session!.lastSeenAt, revokedAt: null, maxInactiveMinutes: 30 },
      });
      expect(found!.account.passwordChangedAt).toEqual(new Date('2026-01-02T03:04:05.678Z'));
      expect(found!.account.createdAt).toBeInstanceOf(Date);
      expect(found!.account.domainName).toEqual({ en: 'Doctor', chs: '医生' });
      expect(typeof found!.account.mustChangePassword).toBe('boolean');
      expect(found!.account.disabled).toBe(0);
      // The doctor belongs to organizations: the scope is not trivially empty.
      expect(found!.scope.access.memberships.size).toBeGreaterThan(0);
      expect(found!.scope.facts.length).toBe(found!.scope.access.memberships.size);
    }
  });

  it('tells a revoked, an unknown session and an unknown account apart', async () => {
    const db = t.db.database.db;
    const token = await signIn(t, doctorAccount);
    const doctor = (await findAccountByUsername(db, 'doctor'))!;
    expect((await t.call('POST', 'accounts/logout', { token })).statusCode).toBeLessThan(300);
    const revoked = await findAccountWithSession(db, doctor.id, jtiOf(token));
    expect(revoked!.session.found).toBe(true);
    expect(revoked!.session.revokedAt).toEqual(t.clock.now());
    const unknown = await findAccountWithSession(db, doctor.id, 'no-such-session');
    expect(unknown!.session).toMatchObject({ found: false, lastSeenAt: null, revokedAt: null });
    expect(unknown!.account.id).toBe(doctor.id);
    expect(await findAccountWithSession(db, 'no-such-account', jtiOf(token))).toBeUndefined();
  });
});
