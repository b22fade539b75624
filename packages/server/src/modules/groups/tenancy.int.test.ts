import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  joinOrganization,
  makeAccount,
  makeGroupMember,
  makeMember,
  makeOrganization,
  type BuiltAccount,
} from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * The "done when", as calls: a fresh account creates a group, adds an organization and a
 * doctor with a role; the doctor sees only that organization; a user of another group sees none of
 * it; the auditor sees those actions in the log.
 */
let t: TestApp;
let owner: string;
let groupId: string;
let orgId: string;
let otherOrgId: string;
let doctorId: string;
let roleId: string;
/** Another group's doctor, admin and auditor (built below). */
let doctorElsewhere: BuiltAccount;
let teleadmin: BuiltAccount;
let teleauditor: BuiltAccount;
let teleGroupId: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // A hospital whose name and organization code are taken, with a doctor; a teleradiology group
  // with its admin and auditor; the platform admin.
  const hospital = await makeOrganization(t, { group: { displayName: '仁和医院' }, code: 'RH-RAD', name: '放射科' });
  doctorElsewhere = await makeMember(t, hospital.bucketId, { actions: ['exam_get', 'report_upsert'] });
  const tele = await makeOrganization(t, { group: { displayName: '协和远程影像中心', enablePrivacy: true } });
  teleGroupId = tele.groupId;
  teleadmin = await makeGroupMember(t, tele.groupId, 1);
  await joinOrganization(t, tele.bucketId, teleadmin.accountId, { level: 'admin', groupLevel: 1 });
  teleauditor = await makeGroupMember(t, tele.groupId, 9);
  const admin = (await makeAccount(t, { platformAdmin: true })).token;
  await t.call('PUT', 'domain', { token: admin, body: { allowRegistration: true } });
  const reg = await t.call('POST', 'accounts', {
    body: { username: 'founder', password: 'kestrel481', name: '创始人' },
  });
  owner = reg.json().accessToken;
});
afterAll(async () => {
  await t.close();
});

const as = (token: string) => t.as(token);

describe('a fresh account builds a tenant', () => {
  it('checks the name, creates the group and becomes its admin', async () => {
    const me = as(owner);
    expect((await me.get(`groups/available?name=${encodeURIComponent('仁和医院')}`)).json()).toEqual({
      available: false,
    });
    expect((await me.get(`groups/available?name=${encodeURIComponent('新华影像')}`)).json()).toEqual({
      available: true,
    });
    const taken = await me.post('groups', { displayName: '仁和医院' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('NameNotAvailable');
    const res = await me.post('groups', { displayName: '新华影像' });
    expect(res.statusCode).toBe(201);
    groupId = res.json().id;
    expect(res.json()).toMatchObject({ displayName: '新华影像', accessLevel: 1, memberCount: 1, organizationCount: 0 });
    expect((await me.get('groups/mine')).json().map((g: { id: string }) => g.id)).toEqual([groupId]);
  });

  it('refuses a second group for someone already in one, and creation without it unlocked', async () => {
    const again = await as(owner).post('groups', { displayName: '另一个' });
    expect(again.json().code).toBe('AlreadyInGroup');
    const doctor = doctorElsewhere.token;
    expect((await as(doctor).post('groups', { displayName: '医生的组' })).statusCode).toBe(403);
  });

  it('creates organizations with a checked, unique, fixed code', async () => {
    const me = as(owner);
    for (const code of ['abc', 'has space', 'bad!code', 'x'.repeat(36)]) {
      expect((await me.post(`groups/${groupId}/organizations`, { name: '放射科', code })).statusCode, code).toBe(400);
    }
    expect((await me.post(`groups/${groupId}/organizations`, { name: 'x', code: 'RH-RAD' })).json().code).toBe(
      'CodeTaken',
    );
    const res = await me.post(`groups/${groupId}/organizations`, { name: '放射科', code: 'XH-RAD1' });
    expect(res.statusCode).toBe(201);
    orgId = res.json().id;
    otherOrgId = (await me.post(`groups/${groupId}/organizations`, { name: 'CT 室', isPrivate: true })).json().id;
    expect((await me.put(`buckets/${orgId}`, { code: 'XH-RAD2' })).statusCode).toBe(400);
    expect((await me.put(`buckets/${otherOrgId}`, { code: 'XH-CT01' })).json().code).toBe('XH-CT01');
    expect((await me.put(`buckets/${orgId}`, { focused: true })).json()).toMatchObject({
      focused: true,
      code: 'XH-RAD1',
    });
  });

  it('creates a doctor account in the group, adds it to the organization and gives it a role', async () => {
    const me = as(owner);
    const weak = await me.post(`groups/${groupId}/members/create-account`, {
      username: 'xhdoc',
      name: '许医生',
      password: 'abc',
      accessLevel: 0,
    });
    expect(weak.json().code).toBe('PasswordTooSimple');
    const created = await me.post(`groups/${groupId}/members/create-account`, {
      username: 'xhdoc',
      name: '许医生',
      password: 'Init#2026',
      accessLevel: 0,
    });
    expect(created.statusCode).toBe(201);
    doctorId = created.json().accountId;
    const bad = await me.post(`buckets/${orgId}/roles`, {
      name: '报告医生',
      actions: ['report_upsert', 'fly_to_moon'],
    });
    expect(bad.statusCode).toBe(400);
    const role = await me.post(`buckets/${orgId}/roles`, { name: '报告医生', actions: ['exam_get', 'report_upsert'] });
    expect(role.statusCode).toBe(201);
    roleId = role.json().id;
    expect((await me.put(`roles/${roleId}/mappings`, { accountIds: [doctorId] })).statusCode).toBe(400);
    expect(
      (await me.post(`buckets/${orgId}/members`, { accountIds: [doctorId], accessLevel: 'member' })).statusCode,
    ).toBe(200);
    const mapped = await me.put(`roles/${roleId}/mappings`, { accountIds: [doctorId] });
    expect(mapped.json().memberIds).toEqual([doctorId]);
    const catalogue = (await me.get('actions/all')).json() as { category: string; actions: string[] }[];
    expect(catalogue.map((c) => c.category)).toEqual([
      'exam',
      'attachment',
      'template',
      'report',
      'registry',
      'statistics',
      'consultation',
      'quality',
      'order',
      'queue',
      'other',
    ]);
  });

  it('the doctor must replace the admin-set password, then sees only its organization and role actions', async () => {
    const first = await t.call('POST', 'accounts/login-in', { body: { username: 'xhdoc', password: 'Init#2026' } });
    expect(first.json().code).toBe('PasswordExpired');
    const set = await t.call('POST', 'accounts/update-password', {
      body: { username: 'xhdoc', oldPwd: 'Init#2026', newPwd: 'Mine#2026' },
    });
    const doctor = as(set.json().accessToken);
    expect((await doctor.get('accounts/me/organizations')).json()).toEqual([
      { id: orgId, name: '放射科', groupId, accessLevel: 'member' },
    ]);
    expect((await doctor.get('accounts/me/permissions')).json()).toEqual([
      { bucketId: orgId, groupId, type: 1, accessLevel: 'member', actions: ['exam_get', 'report_upsert'] },
    ]);
    const visible = (await doctor.get(`groups/${groupId}/organizations`)).json() as { id: string }[];
    expect(visible.map((o) => o.id)).toEqual([orgId]);
    expect((await doctor.get(`buckets/${otherOrgId}`)).statusCode).toBe(404);
    expect((await doctor.post(`buckets/${orgId}/roles`, { name: 'x', actions: [] })).statusCode).toBe(403);
    // The role changes: so do the permissions.
    await as(owner).put(`roles/${roleId}`, {
      name: '报告医生',
      actions: ['exam_get', 'report_upsert', 'report_print'],
    });
    expect((await doctor.get('accounts/me/permissions')).json()[0].actions).toEqual([
      'exam_get',
      'report_print',
      'report_upsert',
    ]);
  });

  it('a user of another group sees none of it', async () => {
    const tele = as(teleadmin.token);
    for (const url of [
      `groups/${groupId}`,
      `groups/${groupId}/members`,
      `groups/${groupId}/organizations`,
      `buckets/${orgId}`,
      `buckets/${orgId}/roles`,
      `buckets/${orgId}/members`,
      `buckets/${orgId}/tags`,
    ]) {
      const res = await tele.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('新华影像');
      expect(res.body).not.toContain(orgId);
    }
    expect((await tele.put(`roles/${roleId}`, { name: 'x', actions: [] })).statusCode).toBe(404);
    expect((await tele.get('accounts/suggestions?q=xh')).json()).toEqual([]);
  });

  it('deleting asks for the exact name', async () => {
    const me = as(owner);
    expect((await me.del(`roles/${roleId}`, { confirmName: '报告' })).statusCode).toBe(400);
    expect((await me.del(`buckets/${otherOrgId}`, { confirmName: 'ct 室' })).statusCode).toBe(400);
    expect((await me.del(`buckets/${otherOrgId}`, { confirmName: 'CT 室' })).statusCode).toBe(204);
    expect((await me.get(`buckets/${otherOrgId}`)).statusCode).toBe(404);
  });

  it('keeps at least one admin', async () => {
    const me = as(owner);
    const ownerId = (await me.get('accounts/me')).json().id;
    expect((await me.put(`groups/${groupId}/members/${ownerId}`, { accessLevel: 0 })).json().code).toBe('LastAdmin');
    expect((await me.post(`groups/${groupId}/quit`)).json().code).toBe('LastAdmin');
  });

  it('the auditor sees those actions; the admin cannot read the log; the log cannot be changed', async () => {
    const me = as(owner);
    const aud = await me.post(`groups/${groupId}/members/create-account`, {
      username: 'xhaudit',
      name: '审计',
      password: 'Init#2026',
      accessLevel: 9,
    });
    expect(aud.statusCode).toBe(201);
    await t.call('POST', 'accounts/update-password', {
      body: { username: 'xhaudit', oldPwd: 'Init#2026', newPwd: 'Audit#2026' },
    });
    const auditor = as(await t.login('xhaudit', 'Audit#2026'));
    const res = await auditor.post(`domains/audit-logs?groupId=${groupId}`, { limit: 200 });
    expect(res.statusCode).toBe(200);
    const actions = (res.json().logs as { action: string }[]).map((l) => l.action);
    for (const a of [
      'group.create',
      'bucket.create',
      'account.create',
      'role.create',
      'role.members',
      'role.update',
      'bucket.delete',
      'account.login',
    ]) {
      expect(actions, a).toContain(a);
    }
    expect((await me.post(`domains/audit-logs?groupId=${groupId}`, {})).statusCode).toBe(403);
    const tele = as(teleauditor.token);
    expect((await tele.post(`domains/audit-logs?groupId=${groupId}`, {})).statusCode).toBe(404);
    const other = (await tele.post(`domains/audit-logs?groupId=${teleGroupId}`, { limit: 200 })).json().logs as {
      details: unknown;
    }[];
    expect(JSON.stringify(other)).not.toContain(groupId);
    const filtered = await auditor.post(`domains/audit-logs?groupId=${groupId}`, { action: 'role.', limit: 5 });
    expect((filtered.json().logs as { action: string }[]).every((l) => l.action.startsWith('role.'))).toBe(true);
  });
});
