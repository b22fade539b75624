import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinOrganization, makeAccount, makeMember, makeOrganization } from '../../test/factories.js';
import { DEMO_PW, startTestApp, type TestApp } from '../../test/harness.js';
import { findAccountByUsername } from './accounts.store.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // The cases sign in with t.login's default password: the platform admin; a doctor writing
  // reports in a hospital's radiology and ultrasound, and its colleague the senior (王主任);
  // teledoctor, a doctor of another group.
  const pw = { password: DEMO_PW, signIn: false };
  await makeAccount(t, { username: 'admin', platformAdmin: true, ...pw });
  const rad = await makeOrganization(t, { name: '放射科' });
  const us = await makeOrganization(t, { groupId: rad.groupId, name: '超声科' });
  const reporting = ['exam_get', 'report_upsert', 'report_print'] as const;
  const doctor = await makeMember(t, rad.bucketId, { username: 'doctor', name: '李医生', actions: reporting, ...pw });
  await joinOrganization(t, us.bucketId, doctor.accountId, { actions: reporting });
  await makeMember(t, rad.bucketId, {
    username: 'senior',
    name: '王主任',
    actions: ['exam_get', 'report_approval'],
    ...pw,
  });
  const tele = await makeOrganization(t);
  await makeMember(t, tele.bucketId, { username: 'teledoctor', name: '陈医生', actions: reporting, ...pw });
  admin = await t.login('admin');
});
afterAll(async () => {
  await t.close();
});

const setDomain = (change: Record<string, unknown>) => t.call('PUT', 'domain', { token: admin, body: change });

describe('POST accounts (register)', () => {
  it('is refused unless the domain allows registration, and creates nothing', async () => {
    await setDomain({ allowRegistration: false });
    const res = await t.call('POST', 'accounts', { body: { username: 'newdoc', password: 'tulip42', name: 'New' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('RegistrationClosed');
    expect(await findAccountByUsername(t.db.database.db, 'newdoc')).toBeUndefined();
  });

  it('registers and signs in when allowed', async () => {
    await setDomain({ allowRegistration: true, requireStrongPwd: false });
    const res = await t.call('POST', 'accounts', {
      body: { username: ' newdoc ', password: 'tulip42', name: '新医生' },
    });
    expect(res.statusCode).toBe(201);
    const me = await t.call('GET', 'accounts/me', { token: res.json().accessToken });
    expect(me.json()).toMatchObject({
      username: 'newdoc',
      name: '新医生',
      canCreateGroup: true,
      isPlatformAdmin: false,
    });
    expect(me.json()).not.toHaveProperty('passwordHash');
  });

  it('refuses a taken username, case-insensitively', async () => {
    const res = await t.call('POST', 'accounts', { body: { username: 'NewDoc', password: 'tulip42', name: 'x' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('UsernameTaken');
  });

  it('applies the ordinary and the strong password policy', async () => {
    const simple = await t.call('POST', 'accounts', { body: { username: 'p1', password: 'abcdef', name: 'x' } });
    expect(simple.statusCode).toBe(400);
    expect(simple.json()).toMatchObject({ code: 'PasswordTooSimple', details: { problem: 'passwordTooSimple' } });
    await setDomain({ requireStrongPwd: true });
    const weak = await t.call('POST', 'accounts', { body: { username: 'p2', password: 'tulip42', name: 'x' } });
    expect(weak.json().code).toBe('PasswordTooSimple');
    const strong = await t.call('POST', 'accounts', { body: { username: 'p3', password: 'Abc123!x', name: 'x' } });
    expect(strong.statusCode).toBe(201);
    await setDomain({ requireStrongPwd: false });
    expect(await findAccountByUsername(t.db.database.db, 'p1')).toBeUndefined();
    expect(await findAccountByUsername(t.db.database.db, 'p2')).toBeUndefined();
  });

  it('refuses missing fields and bad usernames with a 400', async () => {
    for (const body of [
      { username: 'x1', password: 'tulip42' },
      { username: 'bad name', password: 'tulip42', name: 'x' },
      {},
    ]) {
      const res = await t.call('POST', 'accounts', { body });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('ValidationError');
    }
  });
});

describe('GET and PATCH accounts/me', () => {
  it('answers the User and Profile fields', async () => {
    const token = await t.login('doctor');
    const me = (await t.call('GET', 'accounts/me', { token })).json();
    for (const key of [
      'id',
      'username',
      'name',
      'avatar',
      'signature',
      'canCreateGroup',
      'registry',
      'domainName',
      'mobile',
      'licenseIssuer',
      'professionalTitle',
      'loginType',
      'preferences',
    ]) {
      expect(me).toHaveProperty(key);
    }
  });

  it('updates profile fields and merges preferences', async () => {
    const token = await t.login('senior');
    const res = await t.call('PATCH', 'accounts/me', {
      token,
      body: {
        licenseIssuer: '国家卫健委',
        professionalTitle: '主任医师',
        mobile: '13812345678',
        preferences: { language: 'en' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      licenseIssuer: '国家卫健委',
      professionalTitle: '主任医师',
      mobile: '13812345678',
      preferences: { language: 'en' },
    });
    const again = await t.call('PATCH', 'accounts/me', { token, body: { preferences: { imageColumn: 3 } } });
    expect(again.json().preferences).toEqual({ language: 'en', imageColumn: 3 });
  });

  it('refuses unknown fields and bad values, changing nothing', async () => {
    const token = await t.login('senior');
    for (const body of [
      { isPlatformAdmin: true },
      { mobile: 'call me' },
      { preferences: { language: 'fr' } },
      { name: '' },
      { username: 'root' },
    ]) {
      const res = await t.call('PATCH', 'accounts/me', { token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const me = (await t.call('GET', 'accounts/me', { token })).json();
    expect(me).toMatchObject({ username: 'senior', isPlatformAdmin: false, mobile: '13812345678' });
  });
});

describe('password changes', () => {
  it('change-password needs the old password, answers a new token and retires the old one', async () => {
    await t.call('POST', 'accounts', { body: { username: 'pwuser', password: 'tulip42', name: 'x' } });
    const old = await t.login('pwuser', 'tulip42');
    const wrong = await t.call('POST', 'accounts/change-password', {
      token: old,
      body: { oldPassword: 'nope123', newPassword: 'xyz789' },
    });
    expect(wrong.json().code).toBe('OldPasswordIncorrect');
    const simple = await t.call('POST', 'accounts/change-password', {
      token: old,
      body: { oldPassword: 'tulip42', newPassword: 'aaaaaa' },
    });
    expect(simple.json().code).toBe('PasswordTooSimple');
    const res = await t.call('POST', 'accounts/change-password', {
      token: old,
      body: { oldPassword: 'tulip42', newPassword: 'xyz789' },
    });
    expect(res.statusCode).toBe(200);
    expect((await t.call('GET', 'accounts/me', { token: old })).json().code).toBe('JsonWebTokenError');
    expect((await t.call('GET', 'accounts/me', { token: res.json().accessToken })).statusCode).toBe(200);
    expect(
      (await t.call('POST', 'accounts/login-in', { body: { username: 'pwuser', password: 'tulip42' } })).statusCode,
    ).toBe(401);
    expect(
      (await t.call('POST', 'accounts/login-in', { body: { username: 'pwuser', password: 'xyz789' } })).statusCode,
    ).toBe(200);
  });

  it('a password that fails a newly strong policy expires: login says so and update-password replaces it', async () => {
    await setDomain({ requireStrongPwd: true });
    try {
      const res = await t.call('POST', 'accounts/login-in', { body: { username: 'pwuser', password: 'xyz789' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PasswordExpired');
      const weak = await t.call('POST', 'accounts/update-password', {
        body: { username: 'pwuser', oldPwd: 'xyz789', newPwd: 'xyz7890' },
      });
      expect(weak.json().code).toBe('PasswordTooSimple');
      const badOld = await t.call('POST', 'accounts/update-password', {
        body: { username: 'pwuser', oldPwd: 'wrong12', newPwd: 'Xyz789!a' },
      });
      expect(badOld.json().code).toBe('WrongCredentials');
      const ok = await t.call('POST', 'accounts/update-password', {
        body: { username: 'pwuser', oldPwd: 'xyz789', newPwd: 'Xyz789!a' },
      });
      expect(ok.statusCode).toBe(200);
      expect((await t.call('GET', 'accounts/me', { token: ok.json().accessToken })).json().username).toBe('pwuser');
      expect(
        (await t.call('POST', 'accounts/login-in', { body: { username: 'pwuser', password: 'Xyz789!a' } })).statusCode,
      ).toBe(200);
    } finally {
      await setDomain({ requireStrongPwd: false });
    }
  });

  it('refuses to reuse the current password', async () => {
    const token = await t.login('pwuser', 'Xyz789!a');
    const res = await t.call('POST', 'accounts/change-password', {
      token,
      body: { oldPassword: 'Xyz789!a', newPassword: 'Xyz789!a' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.problem).toBe('samePassword');
  });
});

describe('suggestions, permissions, organizations, password reset', () => {
  it("suggests colleagues of the caller's groups, and outsiders only by exact username", async () => {
    const doctor = await t.login('doctor');
    expect((await t.call('GET', 'accounts/suggestions?q=sen', { token: doctor })).json()).toEqual([
      { id: expect.any(String), username: 'senior', name: '王主任' },
    ]);
    const tele = await t.login('teledoctor');
    expect((await t.call('GET', 'accounts/suggestions?q=sen', { token: tele })).json()).toEqual([]);
    expect((await t.call('GET', `accounts/suggestions?q=${encodeURIComponent('王')}`, { token: tele })).json()).toEqual(
      [],
    );
    const exact = await t.call('GET', 'accounts/suggestions?q=SENIOR', { token: tele });
    expect(exact.json()).toEqual([{ id: expect.any(String), username: 'senior', name: '王主任' }]);
    expect((await t.call('GET', 'accounts/suggestions?q=%25', { token: doctor })).json()).toEqual([]);
    expect((await t.call('GET', 'accounts/suggestions', { token: doctor })).statusCode).toBe(400);
  });

  it("answers the caller's permissions per organization, and none for an account without organizations", async () => {
    const doctor = await t.login('doctor');
    const perms = (await t.call('GET', 'accounts/me/permissions', { token: doctor })).json() as {
      bucketId: string;
      type: number;
      accessLevel: string;
      actions: string[];
    }[];
    const orgs = (await t.call('GET', 'accounts/me/organizations', { token: doctor })).json() as {
      id: string;
      name: string;
    }[];
    expect(orgs.map((o) => o.name).sort()).toEqual(['放射科', '超声科'].sort());
    expect(perms).toHaveLength(2);
    for (const p of perms) {
      expect(p.type).toBe(1);
      expect(p.actions).toContain('report_upsert');
      expect(p.actions).not.toContain('report_approval');
    }
    const fresh = await t.login('pwuser', 'Xyz789!a');
    expect((await t.call('GET', 'accounts/me/permissions', { token: fresh })).json()).toEqual([]);
    expect((await t.call('GET', 'accounts/me/organizations', { token: fresh })).json()).toEqual([]);
  });

  it('masks the mobile and says clearly that SMS reset is not configured', async () => {
    expect((await t.call('GET', 'accounts/senior/mobile')).json()).toEqual({ mobile: '138****5678' });
    expect((await t.call('GET', 'accounts/nobody/mobile')).json()).toEqual({ mobile: null });
    const res = await t.call('POST', 'accounts/senior/code/reset-password');
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('ServiceNotConfigured');
  });
});
