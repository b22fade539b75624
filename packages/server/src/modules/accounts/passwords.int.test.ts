import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { makeAccount, makeGroup, makeGroupMember } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { findAccountByUsername } from './accounts.store.js';

// Issue 19 §9: the most common passwords are refused wherever a password is set, under both
// policies, with the spec's "password is too simple" (PasswordTooSimple).

let t: TestApp;
let admin: string;
let groupAdmin: string;
let groupId: string;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
  admin = (await makeAccount(t, { platformAdmin: true })).token;
  groupAdmin = (await makeGroupMember(t, (await makeGroup(t)).groupId, 1)).token;
  const groups = (await t.call('GET', 'groups/mine', { token: groupAdmin })).json() as { id: string }[];
  groupId = groups[0]!.id;
});
afterAll(async () => {
  await t.close();
});

const setStrong = async (requireStrongPwd: boolean) => {
  const res = await t.call('PUT', 'domain', {
    token: admin,
    body: { allowRegistration: true, requireStrongPwd },
  });
  expect(res.statusCode).toBe(200);
};

// Registration is limited per client address: each case registers from an address of its own.
let nextHost = 1;
const register = (username: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/yyp/api/v1/accounts',
    remoteAddress: `198.51.100.${nextHost++}`,
    payload: { username, password, name: 'x' },
  });

function expectCommon(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, what).toBe(400);
  expect(res.json(), what).toMatchObject({
    code: 'PasswordTooSimple',
    message: 'The password is too simple',
    details: { problem: 'passwordTooSimple', reason: 'commonPassword' },
  });
}

// All listed in @zxcvbn-ts/language-common ('Password1!' as 'password1' with a symbol added).
const ordinaryCommon = ['password1', 'qwerty123', 'Password1!'];
const strongCommon = ['Password1!', 'Qwerty123!', 'P@ssw0rd1'];

describe.each([
  { policy: 'ordinary', strong: false, common: ordinaryCommon, good: 'kestrel481' },
  { policy: 'strong', strong: true, common: strongCommon, good: 'Heron#2026x' },
])('under the $policy policy', ({ policy, strong, common, good }) => {
  beforeAll(async () => {
    await setStrong(strong);
  });

  it('registration refuses a common password and creates nothing, and takes an uncommon one', async () => {
    for (const [i, password] of common.entries()) {
      expectCommon(await register(`common-${policy}-${i}`, password), password);
      expect(await findAccountByUsername(t.db.database.db, `common-${policy}-${i}`)).toBeUndefined();
    }
    expect((await register(`fine-${policy}`, good)).statusCode).toBe(201);
  });

  it('change-password refuses a common new password and keeps the old one', async () => {
    const token = await t.login(`fine-${policy}`, good);
    for (const password of common) {
      const res = await t.call('POST', 'accounts/change-password', {
        token,
        body: { oldPassword: good, newPassword: password },
      });
      expectCommon(res, password);
    }
    expect((await t.call('GET', 'accounts/me', { token })).statusCode).toBe(200);
    expect(await t.login(`fine-${policy}`, good)).toEqual(expect.any(String));
  });

  it('update-password (the expired-password path) refuses a common new password', async () => {
    for (const password of common) {
      const res = await t.call('POST', 'accounts/update-password', {
        body: { username: `fine-${policy}`, oldPwd: good, newPwd: password },
      });
      expectCommon(res, password);
    }
    expect(await t.login(`fine-${policy}`, good)).toEqual(expect.any(String));
  });

  it("a group admin's new account refuses a common initial password", async () => {
    for (const [i, password] of common.entries()) {
      const res = await t.call('POST', `groups/${groupId}/members/create-account`, {
        token: groupAdmin,
        body: { username: `member-${policy}-${i}`, name: 'm', password, accessLevel: 0 },
      });
      expectCommon(res, password);
      expect(await findAccountByUsername(t.db.database.db, `member-${policy}-${i}`)).toBeUndefined();
    }
    const ok = await t.call('POST', `groups/${groupId}/members/create-account`, {
      token: groupAdmin,
      body: { username: `member-${policy}`, name: 'm', password: good, accessLevel: 0 },
    });
    expect(ok.statusCode).toBe(201);
  });
});

describe('the demo password', () => {
  it('stays acceptable under the strong policy', async () => {
    await setStrong(true);
    try {
      expect((await register('demo-like', 'Yyp@2026')).statusCode).toBe(201);
    } finally {
      await setStrong(false);
    }
  });
});
