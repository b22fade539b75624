import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, ssoIdentities } from '../../db/schema.js';
import { makeGroup, makeGroupMember, type BuiltAccount } from '../../test/factories.js';
import { startTestApp, TestClock, type TestApp } from '../../test/harness.js';
import { lastAudit as lastAuditOf } from '../../test/factories-platform.js';
import { startOidcProvider, type OidcTestProvider } from '../../test/oidc-provider.js';

// Issue 27: an existing password account links the identity it has at its group's OpenID provider
// (from its personal settings), then signs in with one click; it may unlink it while it keeps a
// password. Against a real oidc-provider on 127.0.0.1, its screens driven with plain HTTP.

const BASE = 'http://127.0.0.1:5198';
const REDIRECT = `${BASE}/loginCallback`;
const SECRET = 'client-secret-of-the-link-hospital-0123';

let t: TestApp;
let op: OidcTestProvider;
const clock = new TestClock(Date.now());
let group: string;
let otherGroup: string;
let doctor: BuiltAccount;
let nurse: BuiltAccount;
let outsider: BuiltAccount;

const syncClock = () => clock.advance(Date.now() - clock.now().getTime());

/** The caller starts the link, signs in at the provider as `login`, and /loginCallback hands the code over. */
async function linkThrough(token: string, groupId: string, login: string) {
  syncClock();
  const started = await t.as(token).post(`accounts/me/sso/${groupId}/link`, {});
  expect(started.statusCode, started.body).toBe(200);
  const callback = await op.signIn((started.json() as { url: string }).url, login);
  const q = new URLSearchParams({
    code: callback.searchParams.get('code')!,
    state: callback.searchParams.get('state')!,
  });
  const iss = callback.searchParams.get('iss');
  if (iss) q.set('iss', iss);
  return t.app.inject({ method: 'GET', url: `/yyp/api/v1/auth/token?${q}` });
}

/** A plain sign-in through the group's provider (the login page's button). */
async function signInThrough(groupId: string, login: string) {
  syncClock();
  const res = await t.app.inject({ method: 'GET', url: `/yyp/api/v1/accounts/auth?type=sso&groupId=${groupId}` });
  const callback = await op.signIn((res.json() as { url: string }).url, login);
  const q = new URLSearchParams({
    code: callback.searchParams.get('code')!,
    state: callback.searchParams.get('state')!,
  });
  const iss = callback.searchParams.get('iss');
  if (iss) q.set('iss', iss);
  return t.app.inject({ method: 'GET', url: `/yyp/api/v1/auth/token?${q}` });
}

const linksOf = async (accountId: string) =>
  t.db.database.db.select().from(ssoIdentities).where(eq(ssoIdentities.accountId, accountId));

const lastAudit = (action: string) => lastAuditOf(t, action);

beforeAll(async () => {
  t = await startTestApp({ seed: false, clock, publicBaseUrl: BASE });
  op = await startOidcProvider({
    clients: [{ clientId: 'link-hospital', clientSecret: SECRET, redirectUris: [REDIRECT] }],
    idTokenTtlSeconds: 60,
  });
  op.users.set('li.staff', { preferred_username: 'li.staff', name: '李医生' });
  op.users.set('zhao.staff', { preferred_username: 'zhao.staff', name: '赵护士' });
  group = (await makeGroup(t, { displayName: '丙城医院集团' })).groupId;
  otherGroup = (await makeGroup(t, { displayName: '丁城医院集团' })).groupId;
  const admin = await makeGroupMember(t, group, 1);
  doctor = await makeGroupMember(t, group, 0);
  nurse = await makeGroupMember(t, group, 0);
  outsider = await makeGroupMember(t, otherGroup, 0);
  const res = await t.as(admin.token).put(`groups/${group}/sso`, {
    label: '丙城医院',
    issuer: op.issuer,
    clientId: 'link-hospital',
    clientSecret: SECRET,
    scopes: 'openid profile',
    usernameClaim: 'preferred_username',
    nameClaim: 'name',
    mobileClaim: '',
    allowCreate: false,
    enabled: true,
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await op?.close();
});

describe('linking a password account to its group’s single sign-on', () => {
  it('offers the group’s provider to its members only', async () => {
    const mine = await t.as(doctor.token).get('accounts/me/sso');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ linked: [], offered: [{ groupId: group, label: '丙城医院' }], hasPassword: true });
    expect((await t.as(outsider.token).get('accounts/me/sso')).json()).toMatchObject({ linked: [], offered: [] });
    // another group's member cannot start a link there: as if the provider did not exist
    const refused = await t.as(outsider.token).post(`accounts/me/sso/${group}/link`, {});
    expect(refused.statusCode).toBe(404);
  });

  it('links the identity the provider vouches for, signs the account in, and next time one click suffices', async () => {
    const before = await signInThrough(group, 'li.staff');
    // the group creates no accounts: unknown identity refused before the link
    expect(before.statusCode).toBe(403);
    const linked = await linkThrough(doctor.token, group, 'li.staff');
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({
      username: doctor.username,
      loginType: 'sso',
      redirect: '/settings/mobile?linked=sso',
    });
    expect(await linksOf(doctor.accountId)).toHaveLength(1);
    expect(await lastAudit('account.sso.link')).toMatchObject({
      actorId: doctor.accountId,
      targetId: group,
      outcome: 'success',
    });
    const again = await signInThrough(group, 'li.staff');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ username: doctor.username, loginType: 'sso' });
    const links = (await t.as(doctor.token).get('accounts/me/sso')).json() as {
      linked: { groupId: string }[];
      offered: unknown[];
    };
    expect(links.linked.map((l) => l.groupId)).toEqual([group]);
    expect(links.offered).toEqual([]);
  });

  it('refuses a second link of the account in the group, and an identity already linked to another account', async () => {
    const second = await t.as(doctor.token).post(`accounts/me/sso/${group}/link`, {});
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'SsoAlreadyLinked' });
    const taken = await linkThrough(nurse.token, group, 'li.staff');
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'SsoAlreadyLinked' });
    expect(await linksOf(nurse.accountId)).toHaveLength(0);
    expect((await lastAudit('account.login'))?.details).toMatchObject({ reason: 'identity_linked_elsewhere' });
  });

  it('needs a signed-in caller', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/yyp/api/v1/accounts/me/sso/${group}/link` });
    expect(res.statusCode).toBe(401);
  });

  it('unlinks while the account keeps a password, never the only way in of one without', async () => {
    const linked = await linkThrough(nurse.token, group, 'zhao.staff');
    expect(linked.statusCode, linked.body).toBe(200);
    await t.db.database.db.update(accounts).set({ passwordHash: null }).where(eq(accounts.id, nurse.accountId));
    const refused = await t.as(nurse.token).del(`accounts/me/sso/${group}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SsoUnlinkNotAllowed' });
    expect(await linksOf(nurse.accountId)).toHaveLength(1);

    expect((await t.as(doctor.token).del(`accounts/me/sso/${group}`)).statusCode).toBe(204);
    expect(await linksOf(doctor.accountId)).toHaveLength(0);
    expect(await lastAudit('account.sso.unlink')).toMatchObject({ actorId: doctor.accountId, targetId: group });
    expect((await t.as(doctor.token).del(`accounts/me/sso/${group}`)).statusCode).toBe(404);
    // unlinked: the identity signs in no more
    expect((await signInThrough(group, 'li.staff')).statusCode).toBe(403);
    const rows = await t.db.database.db
      .select()
      .from(ssoIdentities)
      .where(and(eq(ssoIdentities.groupId, group), eq(ssoIdentities.accountId, doctor.accountId)));
    expect(rows).toHaveLength(0);
  });
});
