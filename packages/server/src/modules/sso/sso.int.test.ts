import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, groupMembers, ssoIdentities, ssoProviders } from '../../db/schema.js';
import { makeAccount, makeGroup, makeGroupMember, type BuiltAccount } from '../../test/factories.js';
import { startTestApp, TestClock, type TestApp } from '../../test/harness.js';
import { startOidcProvider, type OidcTestProvider } from '../../test/oidc-provider.js';

// Issue 27 "OpenID Connect single sign-on": a group's provider (issuer, client, scopes, claim
// mapping), the authorization code flow with PKCE, state and nonce checked, codes single use, an
// identity linked only inside the group whose provider it came from. Against a real oidc-provider on
// 127.0.0.1, whose login and consent screens are driven with plain HTTP.

const BASE = 'http://127.0.0.1:5199';
const REDIRECT = `${BASE}/loginCallback`;
const SECRET_A = 'client-secret-of-hospital-a-0123456789';
const SECRET_B = 'client-secret-of-hospital-b-0123456789';

let t: TestApp;
let op: OidcTestProvider;
const clock = new TestClock(Date.now());
let groupA: string;
let groupB: string;
let adminA: BuiltAccount;
let adminB: BuiltAccount;
let platformAdmin: BuiltAccount;

/** The server's clock back to this host's (the provider's) time: tokens are checked against it. */
const syncClock = () => clock.advance(Date.now() - clock.now().getTime());

const providerBody = (overrides: Record<string, unknown> = {}) => ({
  label: '甲城医院',
  issuer: op.issuer,
  clientId: 'hospital-a',
  clientSecret: SECRET_A,
  scopes: 'openid profile phone',
  usernameClaim: 'preferred_username',
  nameClaim: 'name',
  mobileClaim: 'phone_number',
  allowCreate: true,
  enabled: true,
  ...overrides,
});

let host = 1;
function anonymous(path: string) {
  return t.app.inject({ method: 'GET', url: `/yyp/api/v1/${path}`, remoteAddress: `198.51.100.${host++}` });
}

/** Starts a sign-in at the group's provider: the authorization request's URL. */
async function start(groupId: string, redirect?: string): Promise<URL> {
  const q = new URLSearchParams({ type: 'sso', groupId, ...(redirect ? { redirect } : {}) });
  const res = await anonymous(`accounts/auth?${q}`);
  expect(res.statusCode, res.body).toBe(200);
  const url = (res.json() as { url: string }).url;
  expect(url.startsWith(`${op.issuer}/`)).toBe(true);
  return new URL(url);
}

/** What /loginCallback hands over to GET auth/token. */
function finish(callback: URL, state = callback.searchParams.get('state')!) {
  const q = new URLSearchParams({ code: callback.searchParams.get('code')!, state });
  const iss = callback.searchParams.get('iss');
  if (iss) q.set('iss', iss);
  return anonymous(`auth/token?${q}`);
}

async function signInThrough(groupId: string, login: string) {
  syncClock();
  const url = await start(groupId, '/studies?from=sso');
  const callback = await op.signIn(url.href, login);
  expect(callback.origin + callback.pathname).toBe(REDIRECT);
  return finish(callback);
}

async function lastLoginAudit() {
  const [row] = await t.db.database.db
    .select()
    .from(auditLogs)
    .where(eq(auditLogs.action, 'account.login'))
    .orderBy(desc(auditLogs.id))
    .limit(1);
  return row!;
}

beforeAll(async () => {
  t = await startTestApp({ seed: false, clock, publicBaseUrl: BASE });
  op = await startOidcProvider({
    clients: [
      { clientId: 'hospital-a', clientSecret: SECRET_A, redirectUris: [REDIRECT] },
      { clientId: 'hospital-b', clientSecret: SECRET_B, redirectUris: [REDIRECT] },
    ],
    idTokenTtlSeconds: 60,
  });
  op.users.set('alice', { preferred_username: 'alice.wang@a.example', name: '王爱丽', phone_number: '13800000001' });
  groupA = (await makeGroup(t, { displayName: '甲城医院集团' })).groupId;
  groupB = (await makeGroup(t, { displayName: '乙城医院集团' })).groupId;
  adminA = await makeGroupMember(t, groupA, 1);
  adminB = await makeGroupMember(t, groupB, 1);
  platformAdmin = await makeAccount(t, { platformAdmin: true });
  let res = await t.as(adminA.token).put(`groups/${groupA}/sso`, providerBody());
  expect(res.statusCode, res.body).toBe(200);
  res = await t
    .as(adminB.token)
    .put(
      `groups/${groupB}/sso`,
      providerBody({ label: '乙城医院', clientId: 'hospital-b', clientSecret: SECRET_B, allowCreate: false }),
    );
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await op?.close();
});

describe('a group configures its provider', () => {
  it('keeps the client secret sealed and never answers it', async () => {
    const res = await t.as(adminA.token).get(`groups/${groupA}/sso`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(SECRET_A);
    expect(res.json()).toMatchObject({
      redirectUri: REDIRECT,
      provider: {
        label: '甲城医院',
        issuer: op.issuer,
        clientId: 'hospital-a',
        clientSecretSet: true,
        allowCreate: true,
      },
    });
    const [row] = await t.db.database.db.select().from(ssoProviders).where(eq(ssoProviders.groupId, groupA));
    expect(row!.clientSecretSealed.startsWith('v1.')).toBe(true);
    expect(row!.clientSecretSealed).not.toContain(SECRET_A);
  });

  it('keeps the stored secret when a change leaves it out, and requires one the first time', async () => {
    const { clientSecret: _omitted, ...withoutSecret } = providerBody();
    expect((await t.as(adminA.token).put(`groups/${groupA}/sso`, withoutSecret)).statusCode).toBe(200);
    const group = (await makeGroup(t)).groupId;
    const admin = await makeGroupMember(t, group, 1);
    const res = await t.as(admin.token).put(`groups/${group}/sso`, withoutSecret);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ValidationError' });
  });

  it('refuses an issuer that is not https (http only on loopback), scopes without openid, and an unreachable issuer', async () => {
    const as = t.as(adminA.token);
    for (const bad of [{ issuer: 'http://idp.example.org' }, { issuer: 'ftp://127.0.0.1/' }, { scopes: 'profile' }]) {
      const res = await as.put(`groups/${groupA}/sso`, providerBody(bad));
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const res = await as.put(`groups/${groupA}/sso`, providerBody({ issuer: 'http://127.0.0.1:9' }));
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'SsoProviderError' });
    const [row] = await t.db.database.db.select().from(ssoProviders).where(eq(ssoProviders.groupId, groupA));
    expect(row!.issuer).toBe(op.issuer);
  });

  it('lets only the group’s admins read or change it', async () => {
    expect((await t.as(adminB.token).get(`groups/${groupA}/sso`)).statusCode).toBe(404);
    const member = await makeGroupMember(t, groupA, 0);
    expect((await t.as(member.token).get(`groups/${groupA}/sso`)).statusCode).toBe(403);
    expect((await t.as(member.token).put(`groups/${groupA}/sso`, providerBody())).statusCode).toBe(403);
  });

  it('lists the enabled providers publicly, without secrets', async () => {
    const res = await anonymous('accounts/auth?type=sso');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { providers: { groupId: string; label: string }[]; url: null };
    expect(body.url).toBeNull();
    expect(body.providers).toEqual(
      expect.arrayContaining([
        { groupId: groupA, label: '甲城医院' },
        { groupId: groupB, label: '乙城医院' },
      ]),
    );
    expect(res.body).not.toContain(SECRET_A);
    expect(res.body).not.toContain('hospital-a');
  });
});

describe('signing in with the group’s provider', () => {
  let alice: { accountId: string; username: string };

  it('creates the account on a first login where the group allows it, and answers an sso token', async () => {
    const res = await signInThrough(groupA, 'alice');
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json() as { accessToken: string; loginType: string; groupId: string; redirect: string };
    expect(info).toMatchObject({ loginType: 'sso', groupId: groupA, redirect: '/studies?from=sso' });
    const me = await t.as(info.accessToken).get('accounts/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      username: 'alice_wang',
      name: '王爱丽',
      mobile: '13800000001',
      loginType: 'sso',
      isPlatformAdmin: false,
    });
    alice = { accountId: (me.json() as { id: string }).id, username: 'alice_wang' };
    const members = await t.db.database.db
      .select()
      .from(groupMembers)
      .where(eq(groupMembers.accountId, alice.accountId));
    expect(members.map((m) => [m.groupId, m.accessLevel])).toEqual([[groupA, 0]]);
    const audit = await lastLoginAudit();
    expect(audit).toMatchObject({ outcome: 'success', actorId: alice.accountId, targetId: groupA });
    expect(JSON.stringify(audit)).not.toContain(info.accessToken);
  });

  it('signs the same identity in to the same account next time', async () => {
    const res = await signInThrough(groupA, 'alice');
    expect(res.statusCode, res.body).toBe(200);
    const me = await t.as((res.json() as { accessToken: string }).accessToken).get('accounts/me');
    expect((me.json() as { id: string }).id).toBe(alice.accountId);
    const links = await t.db.database.db
      .select()
      .from(ssoIdentities)
      .where(eq(ssoIdentities.accountId, alice.accountId));
    expect(links).toHaveLength(1);
  });

  it('refuses a reused code and state: a sign-in finishes once', async () => {
    syncClock();
    const callback = await op.signIn((await start(groupA)).href, 'alice');
    expect((await finish(callback)).statusCode).toBe(200);
    const again = await finish(callback);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'SsoStateInvalid' });
    expect(await lastLoginAudit()).toMatchObject({
      outcome: 'denied',
      details: { method: 'sso', reason: 'state_unknown' },
    });
  });

  it('refuses a wrong state, and a state older than ten minutes', async () => {
    syncClock();
    const callback = await op.signIn((await start(groupA)).href, 'alice');
    const wrong = await finish(callback, 'not-the-state-we-issued');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'SsoStateInvalid' });
    // The right state still works once; a late one does not.
    const late = await op.signIn((await start(groupA)).href, 'alice');
    clock.advance(11 * 60_000);
    const res = await finish(late);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'SsoStateInvalid' });
    expect(await lastLoginAudit()).toMatchObject({ outcome: 'denied', details: { reason: 'state_expired' } });
    syncClock();
    expect((await finish(callback)).statusCode).toBe(200);
  });

  it('refuses an id token with another nonce than the one the sign-in was started with', async () => {
    syncClock();
    const url = await start(groupA);
    url.searchParams.set('nonce', 'a-nonce-of-somebody-else');
    const callback = await op.signIn(url.href, 'alice');
    const res = await finish(callback);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'SsoProviderError' });
    expect(res.body).not.toContain('accessToken');
    expect(await lastLoginAudit()).toMatchObject({
      outcome: 'failure',
      details: { method: 'sso', reason: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED:nonce' },
    });
  });

  it('refuses an expired id token (checked against the server’s clock)', async () => {
    syncClock();
    const callback = await op.signIn((await start(groupA)).href, 'alice');
    clock.advance(3 * 60_000); // the id token lives 60 s (and 30 s of tolerance); the state ten minutes
    const res = await finish(callback);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'SsoProviderError' });
    expect(await lastLoginAudit()).toMatchObject({ details: { reason: 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED:exp' } });
  });

  it('refuses a code another group’s provider client obtained', async () => {
    syncClock();
    const stateOfA = (await start(groupA)).searchParams.get('state')!;
    const callbackOfB = await op.signIn((await start(groupB)).href, 'alice');
    const res = await finish(callbackOfB, stateOfA);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'SsoProviderError' });
    expect(await lastLoginAudit()).toMatchObject({ targetId: groupA, details: { reason: 'token_invalid_grant' } });
  });

  it('never signs an identity of group A in through group B’s provider: creation off refuses it', async () => {
    const res = await signInThrough(groupB, 'alice');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'SsoAccountCreationDisabled' });
    expect(await lastLoginAudit()).toMatchObject({ outcome: 'denied', details: { reason: 'creation_disabled' } });
  });

  it('gives an identity at group B’s provider an account of its own in group B, never group A’s', async () => {
    await t.db.database.db.update(ssoProviders).set({ allowCreate: true }).where(eq(ssoProviders.groupId, groupB));
    try {
      const res = await signInThrough(groupB, 'alice');
      expect(res.statusCode, res.body).toBe(200);
      const me = await t.as((res.json() as { accessToken: string }).accessToken).get('accounts/me');
      const id = (me.json() as { id: string }).id;
      expect(id).not.toBe(alice.accountId);
      const members = await t.db.database.db.select().from(groupMembers).where(eq(groupMembers.accountId, id));
      expect(members.map((m) => m.groupId)).toEqual([groupB]);
    } finally {
      await t.db.database.db.update(ssoProviders).set({ allowCreate: false }).where(eq(ssoProviders.groupId, groupB));
    }
  });

  it('refuses a linked account that left the group, or that is a platform admin', async () => {
    const db = t.db.database.db;
    await db
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, groupA), eq(groupMembers.accountId, alice.accountId)));
    let res = await signInThrough(groupA, 'alice');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'SsoIdentityNotAllowed' });
    expect(await lastLoginAudit()).toMatchObject({ outcome: 'denied', details: { reason: 'not_a_member' } });
    await db.insert(groupMembers).values({ groupId: groupA, accountId: platformAdmin.accountId, accessLevel: 0 });
    await db.insert(ssoIdentities).values({
      groupId: groupA,
      issuer: op.issuer,
      subject: 'root',
      accountId: platformAdmin.accountId,
    });
    res = await signInThrough(groupA, 'root');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'SsoIdentityNotAllowed' });
    expect(await lastLoginAudit()).toMatchObject({ details: { reason: 'platform_admin' } });
  });

  it('refuses an unknown identity where the group creates no accounts', async () => {
    await t.db.database.db.update(ssoProviders).set({ allowCreate: false }).where(eq(ssoProviders.groupId, groupA));
    const before = await t.db.database.db.execute(sql`select count(*)::int as n from accounts`);
    const res = await signInThrough(groupA, 'bob');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'SsoAccountCreationDisabled' });
    const after = await t.db.database.db.execute(sql`select count(*)::int as n from accounts`);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
});

describe('login-url, a disabled provider and the platform admin’s status', () => {
  it('answers where a signed-out SSO user of a group signs in again', async () => {
    expect((await anonymous(`login-url?groupId=${groupA}`)).json()).toEqual({ url: `/login?sso=${groupA}` });
    expect((await anonymous('login-url')).json()).toEqual({ url: null });
    expect((await anonymous('login-url?groupId=no-such-group')).json()).toEqual({ url: null });
  });

  it('shows every group’s provider and its use to platform admins only', async () => {
    const res = await t.as(platformAdmin.token).get('admin/sso-providers');
    expect(res.statusCode).toBe(200);
    const rows = res.json() as { groupId: string; identities: number; lastLoginAt: string | null; issuer: string }[];
    const a = rows.find((r) => r.groupId === groupA)!;
    expect(a).toMatchObject({ groupName: '甲城医院集团', issuer: op.issuer, enabled: true });
    expect(a.identities).toBeGreaterThanOrEqual(2);
    expect(a.lastLoginAt).not.toBeNull();
    expect(res.body).not.toContain(SECRET_A);
    expect((await t.as(adminA.token).get('admin/sso-providers')).statusCode).toBe(403);
  });

  it('stops offering a disabled provider, and a removed one', async () => {
    await t
      .as(adminA.token)
      .put(`groups/${groupA}/sso`, { ...providerBody({ enabled: false }), clientSecret: undefined });
    const list = (await anonymous('accounts/auth?type=sso')).json() as { providers: { groupId: string }[] };
    expect(list.providers.map((p) => p.groupId)).not.toContain(groupA);
    expect((await anonymous(`accounts/auth?type=sso&groupId=${groupA}`)).statusCode).toBe(404);
    expect((await anonymous(`login-url?groupId=${groupA}`)).json()).toEqual({ url: null });
    expect((await t.as(adminA.token).del(`groups/${groupA}/sso`)).statusCode).toBe(204);
    expect((await t.as(adminA.token).get(`groups/${groupA}/sso`)).json()).toMatchObject({ provider: null });
  });

  it('refuses a redirect that is not a path of this site', async () => {
    for (const redirect of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const q = new URLSearchParams({ type: 'sso', groupId: groupB, redirect });
      expect((await anonymous(`accounts/auth?${q}`)).statusCode, redirect).toBe(400);
    }
  });
});
