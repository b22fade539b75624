import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLogs, wxIdentities } from '../../db/schema.js';
import { createWeChatLogin, SIM_APP_ID } from '../../platform/wxlogin/index.js';
import { startWxLoginSimulator, type WxLoginSimulator } from '../../sim/wxlogin/index.js';
import { makeAccount, type BuiltAccount } from '../../test/factories.js';
import { startTestApp, TestClock, type TestApp } from '../../test/harness.js';
import { lastAudit as lastAuditOf } from '../../test/factories-platform.js';
import { findAccountByUsername, setDisabled } from '../accounts/index.js';
import { updateDomainConfig } from '../domain/index.js';

// Issue 27 / spec 001 "Sign in by username and password, by WeChat, or by single sign-on", "GET
// accounts/auth with query type", "GET auth/wx/callback with query code, state, source", "WeChat-login
// users cannot change their password". Against the loopback simulator of WeChat's endpoints, whose
// QR-code page is driven with plain HTTP as a phone's scan would.

const BASE = 'http://127.0.0.1:5199';
const SECRET = 'simulated0app0secret0for0the0int';

let t: TestApp;
let sim: WxLoginSimulator;
const clock = new TestClock(Date.now());
let doctor: BuiltAccount;

let host = 1;
const from = () => `198.51.100.${host++}`;
const anonymous = (path: string) => t.app.inject({ method: 'GET', url: `/yyp/api/v1/${path}`, remoteAddress: from() });
const post = (path: string, body: unknown) =>
  t.app.inject({ method: 'POST', url: `/yyp/api/v1/${path}`, payload: body as object, remoteAddress: from() });

/** GET accounts/auth?type=wx: the QR-code page's URL. */
async function start(redirect?: string): Promise<URL> {
  const q = new URLSearchParams({ type: 'wx', ...(redirect ? { redirect } : {}) });
  const res = await anonymous(`accounts/auth?${q}`);
  expect(res.statusCode, res.body).toBe(200);
  return new URL((res.json() as { url: string }).url);
}

/** The person `nickname` scans the QR code and confirms: where WeChat sends the browser back to. */
async function scan(url: URL, nickname: string): Promise<URL> {
  const page = await (await fetch(url.href.replace(/#.*$/, ''))).text();
  const form = [...page.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/g)].find((m) =>
    m[2]!.includes(`以${nickname}扫码确认`),
  );
  expect(form, page).toBeDefined();
  const fields = new URLSearchParams();
  for (const m of form![2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(
      m[1]!,
      m[2]!
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'"),
    );
  }
  const res = await fetch(new URL(form![1]!, url), { method: 'POST', body: fields, redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** What /loginCallback hands over to GET auth/wx/callback. */
function callback(back: URL, state = back.searchParams.get('state')!) {
  const q = new URLSearchParams({ code: back.searchParams.get('code')!, state, source: 'wx' });
  return anonymous(`auth/wx/callback?${q}`);
}

async function bindTicket(nickname: string): Promise<string> {
  const res = await callback(await scan(await start(), nickname));
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ status: 'bind', nickname });
  return (res.json() as { ticket: string }).ticket;
}

const lastAudit = (action: string) => lastAuditOf(t, action);

const identityCount = async (accountId: string) =>
  (await t.db.database.db.select().from(wxIdentities).where(eq(wxIdentities.accountId, accountId))).length;

beforeAll(async () => {
  sim = await startWxLoginSimulator({
    appId: SIM_APP_ID,
    appSecret: SECRET,
    appName: '测试平台',
    now: () => clock.now(),
  });
  const wxLogin = createWeChatLogin({ appId: SIM_APP_ID, appSecret: SECRET, openBase: sim.url, apiBase: sim.url });
  t = await startTestApp({ seed: false, clock, publicBaseUrl: BASE, app: { wxLogin } });
  doctor = await makeAccount(t, { username: 'wxdoctor' });
  await updateDomainConfig(t.db.database.db, { allowRegistration: false }, clock.now());
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('starting a WeChat login', () => {
  it('answers the QR-code page with a fresh state and this site’s /loginCallback?source=wx', async () => {
    const a = await start();
    const b = await start('/studies');
    expect(a.origin + a.pathname).toBe(`${sim.url}/connect/qrconnect`);
    expect(a.hash).toBe('#wechat_redirect');
    expect(Object.fromEntries(a.searchParams)).toMatchObject({
      appid: SIM_APP_ID,
      redirect_uri: `${BASE}/loginCallback?source=wx`,
      response_type: 'code',
      scope: 'snsapi_login',
    });
    expect(a.searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
    expect(a.searchParams.get('state')).not.toBe(b.searchParams.get('state'));
  });

  it('tells the login page WeChat is offered', async () => {
    const res = await anonymous('accounts/auth?type=sso');
    expect(res.json()).toMatchObject({ wx: true });
  });

  it('answers ServiceNotConfigured when WeChat login is off', async () => {
    const off = await startTestApp({ db: t.db, seed: false, clock });
    try {
      const res = await off.call('GET', 'accounts/auth?type=wx');
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('ServiceNotConfigured');
      expect((await off.call('GET', 'accounts/auth?type=sso')).json()).toMatchObject({ wx: false });
    } finally {
      await off.app.close();
    }
  });

  it('refuses bad input with 400, never 500', async () => {
    for (const q of [
      'code=a&state=b',
      'code=a&state=b&source=sso',
      'state=b&source=wx',
      `code=a&state=${'s'.repeat(300)}&source=wx`,
    ]) {
      const res = await anonymous(`auth/wx/callback?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    expect((await post('auth/wx/bind', { ticket: 'x' })).statusCode).toBe(400);
    expect((await post('auth/wx/register', { ticket: 'x', username: 'a b', name: 'n' })).statusCode).toBe(400);
  });
});

describe('the first WeChat login binds an existing account', () => {
  it('refuses a wrong password and changes nothing; the right one links and signs in', async () => {
    const ticket = await bindTicket('张医生');
    const wrong = await post('auth/wx/bind', { ticket, username: doctor.username, password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('WrongCredentials');
    expect(await identityCount(doctor.accountId)).toBe(0);

    const res = await post('auth/wx/bind', { ticket, username: doctor.username, password: doctor.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ token: { loginType: 'normal' }, redirect: null });
    const token = (res.json() as { token: { accessToken: string } }).token.accessToken;
    expect((await t.as(token).get('accounts/me/wx')).json()).toMatchObject({
      linked: true,
      nickname: '张医生',
      canUnlink: true,
    });
    expect(await lastAudit('account.wx.link')).toMatchObject({ outcome: 'success', actorId: doctor.accountId });
    // The ticket was used.
    const again = await post('auth/wx/bind', { ticket, username: doctor.username, password: doctor.password });
    expect(again.json().code).toBe('WxTicketInvalid');
  });

  it('signs the linked WeChat in straight away the next time, back to where it started', async () => {
    const res = await callback(await scan(await start('/studies?from=wx'), '张医生'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'signedIn',
      token: { loginType: 'normal' },
      redirect: '/studies?from=wx',
    });
    const token = (res.json() as { token: { accessToken: string } }).token.accessToken;
    expect((await t.as(token).get('accounts/me')).json()).toMatchObject({ username: doctor.username });
    expect(await lastAudit('account.login')).toMatchObject({
      outcome: 'success',
      actorId: doctor.accountId,
      details: { method: 'wx' },
    });
  });

  it('refuses a second WeChat on an account that has one', async () => {
    const ticket = await bindTicket('李护士');
    const res = await post('auth/wx/bind', { ticket, username: doctor.username, password: doctor.password });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('WxAlreadyLinked');
  });
});

describe('codes and states are single use', () => {
  it('refuses a code used before (WeChat’s 40163)', async () => {
    const back = await scan(await start(), '张医生');
    expect((await callback(back)).statusCode).toBe(200);
    const fresh = (await start()).searchParams.get('state')!;
    const res = await callback(back, fresh);
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('WxProviderError');
    expect(res.body).not.toContain(back.searchParams.get('code')!);
    expect(await lastAudit('account.login')).toMatchObject({ outcome: 'failure', details: { errcode: 40163 } });
  });

  it('refuses a used, an unknown and an expired state', async () => {
    const back = await scan(await start(), '张医生');
    expect((await callback(back)).statusCode).toBe(200);
    const used = await callback(await scan(await start(), '张医生'), back.searchParams.get('state')!);
    expect(used.statusCode).toBe(400);
    expect(used.json().code).toBe('WxStateInvalid');
    const unknown = await callback(back, 'no-such-state');
    expect(unknown.json().code).toBe('WxStateInvalid');
    const late = await scan(await start(), '张医生');
    clock.advance(11 * 60_000);
    const expired = await callback(late);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('WxStateInvalid');
    expect(await lastAudit('account.login')).toMatchObject({ outcome: 'denied', details: { reason: 'state_expired' } });
  });

  it('maps WeChat’s refusal of the app (40125) to WxProviderError', async () => {
    sim.failNextExchange(40125);
    const res = await callback(await scan(await start(), '张医生'));
    expect(res.statusCode).toBe(502);
    expect(res.body).not.toContain(SECRET);
    expect(await lastAudit('account.login')).toMatchObject({ details: { reason: 'rejected', errcode: 40125 } });
  });
});

describe('a WeChat-only account', () => {
  it('cannot be created while registration is closed, and the ticket stays good', async () => {
    const ticket = await bindTicket('Wang Wei');
    const res = await post('auth/wx/register', { ticket, username: 'wangwei', name: '王伟' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('RegistrationClosed');
    expect(await findAccountByUsername(t.db.database.db, 'wangwei')).toBeUndefined();

    await updateDomainConfig(t.db.database.db, { allowRegistration: true }, clock.now());
    const ok = await post('auth/wx/register', { ticket, username: 'wangwei', name: '王伟' });
    expect(ok.statusCode, ok.body).toBe(200);
    const token = (ok.json() as { token: { accessToken: string } }).token.accessToken;
    const [row] = await t.db.database.db.select().from(accounts).where(eq(accounts.username, 'wangwei'));
    expect(row).toMatchObject({ source: 'wx', passwordHash: null });

    // WeChat-login users cannot change their password (spec 001), nor unlink their only way in.
    const change = await t.as(token).post('accounts/change-password', { oldPassword: 'x', newPassword: 'Abc@12345' });
    expect(change.statusCode).toBe(403);
    expect(change.json().code).toBe('PasswordChangeNotAllowed');
    expect((await t.as(token).get('accounts/me/wx')).json()).toMatchObject({ linked: true, canUnlink: false });
    const unlink = await t.as(token).del('accounts/me/wx');
    expect(unlink.statusCode).toBe(409);
    expect(unlink.json().code).toBe('WxUnlinkNotAllowed');
    expect(await identityCount(row!.id)).toBe(1);
    await updateDomainConfig(t.db.database.db, { allowRegistration: false }, clock.now());
  });
});

describe('unlinking and disabled accounts', () => {
  it('unlinks a password account’s WeChat; the next WeChat login asks to bind again', async () => {
    const other = await makeAccount(t);
    const ticket = await bindTicket('李护士');
    const res = await post('auth/wx/bind', { ticket, username: other.username, password: other.password });
    expect(res.statusCode, res.body).toBe(200);
    const del = await t.as(other.token).del('accounts/me/wx');
    expect(del.statusCode).toBe(204);
    expect((await t.as(other.token).get('accounts/me/wx')).json()).toMatchObject({ linked: false });
    expect((await t.as(other.token).del('accounts/me/wx')).statusCode).toBe(404);
    await bindTicket('李护士');
  });

  it('refuses the WeChat of a disabled account', async () => {
    const nurse = await makeAccount(t);
    sim.addUser({ key: 'zhao', nickname: '赵药师' });
    const ticket = await bindTicket('赵药师');
    expect(
      (await post('auth/wx/bind', { ticket, username: nurse.username, password: nurse.password })).statusCode,
    ).toBe(200);
    await setDisabled(t.db.database.db, nurse.accountId, 1, clock.now());
    const res = await callback(await scan(await start(), '赵药师'));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('WxIdentityNotAllowed');
    const [audit] = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'account.login'), eq(auditLogs.actorId, nurse.accountId)))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(audit).toMatchObject({ outcome: 'denied', details: { method: 'wx', reason: 'account_disabled' } });
  });

  it('refuses to link a platform admin, who signs in with the password only; the ticket stays for another account', async () => {
    const admin = await makeAccount(t, { platformAdmin: true });
    sim.addUser({ key: 'qian', nickname: '钱管理员' });
    const ticket = await bindTicket('钱管理员');
    const res = await post('auth/wx/bind', { ticket, username: admin.username, password: admin.password });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('WxIdentityNotAllowed');
    expect(await identityCount(admin.accountId)).toBe(0);
    expect(await lastAudit('account.login')).toMatchObject({
      outcome: 'denied',
      actorId: admin.accountId,
      details: { method: 'wx', reason: 'platform_admin' },
    });
    const other = await makeAccount(t);
    expect(
      (await post('auth/wx/bind', { ticket, username: other.username, password: other.password })).statusCode,
    ).toBe(200);
  });

  it('refuses the WeChat of an account made a platform admin after it was linked', async () => {
    const later = await makeAccount(t);
    sim.addUser({ key: 'sun', nickname: '孙主任' });
    const ticket = await bindTicket('孙主任');
    expect(
      (await post('auth/wx/bind', { ticket, username: later.username, password: later.password })).statusCode,
    ).toBe(200);
    await t.db.database.db.update(accounts).set({ isPlatformAdmin: true }).where(eq(accounts.id, later.accountId));
    const res = await callback(await scan(await start(), '孙主任'));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('WxIdentityNotAllowed');
    expect(await lastAudit('account.login')).toMatchObject({
      outcome: 'denied',
      actorId: later.accountId,
      details: { method: 'wx', reason: 'platform_admin' },
    });
  });
});
