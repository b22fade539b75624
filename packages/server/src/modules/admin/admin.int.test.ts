import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinOrganization, makeAccount, makeGroupMember, makeMember, makeOrganization } from '../../test/factories.js';
import { DEMO_PW, startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let groupId: string;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // The accounts the cases sign in as (t.login's default password): a hospital's security admin,
  // group admin (admin of its radiology, RH-RAD), auditor, technician and registrar; another
  // group's security admin; the platform admin.
  const pw = { password: DEMO_PW, signIn: false };
  const rad = await makeOrganization(t, { code: 'RH-RAD', name: '放射科' });
  groupId = rad.groupId;
  await makeGroupMember(t, groupId, 10, { username: 'secadmin', ...pw });
  await makeGroupMember(t, groupId, 9, { username: 'auditor', ...pw });
  const groupadmin = await makeGroupMember(t, groupId, 1, { username: 'groupadmin', ...pw });
  await joinOrganization(t, rad.bucketId, groupadmin.accountId, { level: 'admin', groupLevel: 1 });
  await makeMember(t, rad.bucketId, { username: 'tech', actions: ['exam_get', 'exam_upload'], ...pw });
  await makeMember(t, rad.bucketId, { username: 'registrar', actions: ['exam_get', 'registry_create'], ...pw });
  await makeGroupMember(t, (await makeOrganization(t)).groupId, 10, { username: 'telesec', ...pw });
  await makeAccount(t, { username: 'admin', platformAdmin: true, ...pw });
});
afterAll(async () => {
  await t.close();
});

const as = (token: string) => t.as(token);

describe('account administration by the security admin', () => {
  it('disables an account, ending its sessions; only the security admin may', async () => {
    const sec = as(await t.login('secadmin'));
    const techToken = await t.login('tech');
    const techId = (await as(techToken).get('accounts/me')).json().id;
    expect((await as(await t.login('groupadmin')).post(`accounts/${techId}/status`, { status: 1 })).statusCode).toBe(
      403,
    );
    expect((await as(await t.login('telesec')).post(`accounts/${techId}/status`, { status: 1 })).statusCode).toBe(404);
    const res = await sec.post(`accounts/${techId}/status`, { status: 1 });
    expect(res.json()).toEqual({ id: techId, disabled: 1 });
    expect((await as(techToken).get('accounts/me')).json().code).toBe('JsonWebTokenError');
    expect(
      (await t.call('POST', 'accounts/login-in', { body: { username: 'tech', password: 'Yyp@2026' } })).json().code,
    ).toBe('AccountDisabled');
    await sec.post(`accounts/${techId}/status`, { status: 0 });
    expect(
      (await t.call('POST', 'accounts/login-in', { body: { username: 'tech', password: 'Yyp@2026' } })).statusCode,
    ).toBe(200);
  });

  it('lists the realm, unlocks a locked account and resets a password', async () => {
    const sec = as(await t.login('secadmin'));
    for (let i = 0; i < 5; i++) {
      await t.call('POST', 'accounts/login-in', { body: { username: 'registrar', password: 'wrong-1' } });
    }
    const realm = await sec.post(`accounts/query-in-realm?groupId=${groupId}`, { q: 'regis' });
    // Listed once, whatever number of lockout rows (per address, per name) the name has.
    expect(realm.json().accounts).toHaveLength(1);
    const registrar = realm.json().accounts[0];
    expect(registrar).toMatchObject({ username: 'registrar', locked: true, disabled: 0 });
    await sec.post(`accounts/${registrar.id}/actions/unlock`);
    expect(
      (await t.call('POST', 'accounts/login-in', { body: { username: 'registrar', password: 'Yyp@2026' } })).statusCode,
    ).toBe(200);
    const reset = await sec.post(`accounts/${registrar.id}/actions/reset-password`);
    const temp = reset.json().temporaryPassword as string;
    expect(temp.length).toBeGreaterThanOrEqual(8);
    expect(
      (await t.call('POST', 'accounts/login-in', { body: { username: 'registrar', password: 'Yyp@2026' } })).statusCode,
    ).toBe(401);
    expect(
      (await t.call('POST', 'accounts/login-in', { body: { username: 'registrar', password: temp } })).json().code,
    ).toBe('PasswordExpired');
    expect((await sec.post(`accounts/${registrar.id}/actions/fly`)).statusCode).toBe(400);
  });
});

describe('auditLogOn', () => {
  it('when off, configuration edits are not logged but security events still are', async () => {
    const platform = as(await t.login('admin'));
    const admin = as(await t.login('groupadmin'));
    const auditor = as(await t.login('auditor'));
    const rad = ((await admin.get(`groups/${groupId}/organizations`)).json() as { id: string; code: string }[]).find(
      (o) => o.code === 'RH-RAD',
    )!;
    const count = async (action: string) =>
      ((await auditor.post(`domains/audit-logs?groupId=${groupId}`, { action, limit: 200 })).json().logs as unknown[])
        .length;
    await platform.put('domain', { auditLogOn: false });
    try {
      const tagsBefore = await count('bucket.tags.add');
      const rolesBefore = await count('role.create');
      await admin.post(`buckets/${rad.id}/tags`, { name: '关闭日志' });
      await admin.post(`buckets/${rad.id}/roles`, { name: '临时角色', actions: ['exam_get'] });
      expect(await count('bucket.tags.add')).toBe(tagsBefore);
      expect(await count('role.create')).toBe(rolesBefore + 1);
    } finally {
      await platform.put('domain', { auditLogOn: true });
    }
    const before = await count('bucket.tags.add');
    await admin.post(`buckets/${rad.id}/tags`, { name: '开启日志' });
    expect(await count('bucket.tags.add')).toBe(before + 1);
  });
});

describe('the platform admin (/settings/admin)', () => {
  it('reads the whole platform’s operation log, across groups; no one else may', async () => {
    const admin = as(await t.login('admin'));
    // Something in each group: the other group's security admin signs in, and so does the tech.
    await t.login('telesec');
    await t.login('tech');
    const res = await admin.post('admin/audit-logs/page-query', { action: 'account.login', limit: 200 });
    expect(res.statusCode).toBe(200);
    const names = new Set((res.json().logs as { actorUsername: string }[]).map((l) => l.actorUsername));
    expect([...names]).toEqual(expect.arrayContaining(['telesec', 'tech', 'admin']));
    // A group's auditor sees its own group only, and not the platform's log.
    const auditor = as(await t.login('auditor'));
    const own = await auditor.post(`domains/audit-logs?groupId=${groupId}`, { action: 'account.login', limit: 200 });
    expect((own.json().logs as { actorUsername: string }[]).map((l) => l.actorUsername)).not.toContain('telesec');
    for (const name of ['auditor', 'secadmin', 'groupadmin']) {
      const refused = await as(await t.login(name)).post('admin/audit-logs/page-query', {});
      expect(refused.statusCode, name).toBe(403);
    }
    expect((await t.call('POST', 'admin/audit-logs/page-query', { body: {} })).statusCode).toBe(401);
    // Reading it is recorded.
    const reads = await admin.post('admin/audit-logs/page-query', { action: 'audit.read', limit: 50 });
    expect(reads.json().logs).toEqual(
      expect.arrayContaining([expect.objectContaining({ actorUsername: 'admin', targetType: 'domain' })]),
    );
  });

  it('lists every group with its members and organizations counted, found by name', async () => {
    const admin = as(await t.login('admin'));
    const res = await admin.post('admin/groups/page-query', { limit: 200 });
    expect(res.statusCode).toBe(200);
    const page = res.json() as {
      groups: { id: string; memberCount: number; organizationCount: number }[];
      count: number;
    };
    expect(page.count).toBeGreaterThanOrEqual(2);
    const hospital = page.groups.find((g) => g.id === groupId);
    expect(hospital).toMatchObject({ memberCount: 5, organizationCount: 1 });
    const page2 = res.json() as { groups: { id: string; displayName: string }[] };
    const name = page2.groups.find((g) => g.id === groupId)!.displayName;
    const named = (await admin.post('admin/groups/page-query', { q: name.slice(2) })).json();
    expect(named.groups.map((g: { id: string }) => g.id)).toEqual([groupId]);
    expect((await admin.post('admin/groups/page-query', { q: 'no-such-group-name' })).json()).toEqual({
      groups: [],
      count: 0,
    });
    expect((await admin.post('admin/groups/page-query', { limit: 0 })).statusCode).toBe(400);
    expect((await as(await t.login('secadmin')).post('admin/groups/page-query', {})).statusCode).toBe(403);
  });
});
