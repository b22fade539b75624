import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

beforeAll(async () => {
  t = await startTestApp();
  const admin = await t.login('admin');
  await t.call('PUT', 'domain', { token: admin, body: { allowRegistration: true } });
  const reg = await t.call('POST', 'accounts', { body: { username: 'founder', password: 'abc123', name: '创始人' } });
  owner = reg.json().accessToken;
});
afterAll(async () => {
  await t.close();
});

const as = (token: string) => ({
  get: (url: string) => t.call('GET', url, { token }),
  post: (url: string, body: unknown = {}) => t.call('POST', url, { token, body }),
  put: (url: string, body: unknown) => t.call('PUT', url, { token, body }),
  del: (url: string, body?: unknown) => t.call('DELETE', url, { token, ...(body ? { body } : {}) }),
});

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
    const doctor = await t.login('doctor');
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
    const tele = as(await t.login('teleadmin'));
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
    const tele = as(await t.login('teleauditor'));
    expect((await tele.post(`domains/audit-logs?groupId=${groupId}`, {})).statusCode).toBe(404);
    const other = (await tele.post('domains/audit-logs?groupId=demo-tele', { limit: 200 })).json().logs as {
      details: unknown;
    }[];
    expect(JSON.stringify(other)).not.toContain(groupId);
    const filtered = await auditor.post(`domains/audit-logs?groupId=${groupId}`, { action: 'role.', limit: 5 });
    expect((filtered.json().logs as { action: string }[]).every((l) => l.action.startsWith('role.'))).toBe(true);
  });
});

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
    const realm = await sec.post('accounts/query-in-realm?groupId=demo-renhe', { q: 'regis' });
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

describe('organization details', () => {
  it('keeps tags to 10 characters, names unique, and shows department 0 as none', async () => {
    const admin = as(await t.login('groupadmin'));
    const rad = ((await admin.get('groups/demo-renhe/organizations')).json() as { id: string; code: string }[]).find(
      (o) => o.code === 'RH-RAD',
    )!;
    expect((await admin.post(`buckets/${rad.id}/tags`, { name: '一二三四五六七八九十一' })).statusCode).toBe(400);
    expect((await admin.post(`buckets/${rad.id}/tags`, { name: '一二三四五六七八九十' })).statusCode).toBe(201);
    expect((await admin.post(`buckets/${rad.id}/tags`, { name: '随访' })).statusCode).toBe(409);
    const deps = (await admin.get(`buckets/${rad.id}/departments`)).json() as { id: string }[];
    expect(deps[0]).toMatchObject({ id: '0', data: { none: true } });
    const doc = await admin.post(`buckets/${rad.id}/doctors`, { name: '新申请医生' });
    expect(doc.json().data).toEqual({ physicianType: 1, departmentId: '0' });
    expect(
      (await admin.post(`buckets/${rad.id}/doctors`, { name: 'x', data: { physicianType: 'a' } })).statusCode,
    ).toBe(400);
  });

  it('rotates and revokes the upload token and notifies at most 2 members', async () => {
    const admin = as(await t.login('groupadmin'));
    const rad = ((await admin.get('groups/demo-renhe/organizations')).json() as { id: string; code: string }[]).find(
      (o) => o.code === 'RH-RAD',
    )!;
    const first = (await admin.post(`buckets/${rad.id}/upload/token`)).json();
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(first.uploadPath).toBe(`/upload?token=${first.token}`);
    const second = (await admin.post(`buckets/${rad.id}/upload/token`)).json();
    expect(second.token).not.toBe(first.token);
    expect((await admin.del(`buckets/${rad.id}/upload/token`)).json().token).toBeNull();
    const members = (await admin.get(`buckets/${rad.id}/members`)).json() as { accountId: string }[];
    const three = members.slice(0, 3).map((m) => m.accountId);
    expect(
      (await admin.put(`buckets/${rad.id}`, { notifications: { uploadNotifyAccountIds: three } })).statusCode,
    ).toBe(400);
    const two = await admin.put(`buckets/${rad.id}`, { notifications: { uploadNotifyAccountIds: three.slice(0, 2) } });
    expect(two.statusCode).toBe(200);
    expect((await admin.get(`buckets/${rad.id}`)).body).not.toContain(second.token);
  });

  it('limits a collaborator to report actions and lets a content manager reach every exam and report action', async () => {
    const notetaker = (await as(await t.login('notetaker')).get('accounts/me/permissions')).json() as {
      actions: string[];
    }[];
    const rad = notetaker.find(() => true)!;
    expect(rad.actions.every((a) => a.startsWith('report_'))).toBe(true);
    expect(rad.actions).toContain('report_upsert');
    const senior = (await as(await t.login('senior')).get('accounts/me/permissions')).json() as {
      accessLevel: string;
      actions: string[];
    }[];
    const cm = senior.find((p) => p.accessLevel === 'contentManager')!;
    expect(cm.actions).toEqual(
      expect.arrayContaining(['exam_delete', 'export_exams', 'report_approval', 'attachment_delete']),
    );
  });

  it("stores assign and color rules naming only the group's own organizations and members", async () => {
    const admin = as(await t.login('groupadmin'));
    const rules = (await admin.get('groups/demo-renhe/rules')).json() as { bucketIds: string[] }[];
    expect(rules).toHaveLength(1);
    const foreign = await admin.post('groups/demo-renhe/rules', {
      name: 'x',
      bucketIds: ['nope'],
      doctorId: null,
      modality: 'MR',
      memberIds: [],
      priority: 2,
    });
    expect(foreign.statusCode).toBe(400);
    const ok = await admin.post('groups/demo-renhe/rules', {
      name: 'MR',
      bucketIds: rules[0]!.bucketIds,
      doctorId: null,
      modality: 'MR',
      memberIds: [],
      priority: 2,
    });
    expect(ok.statusCode).toBe(201);
    await admin.post('groups/demo-renhe/color-rules', {
      name: '低优先',
      priority: 5,
      foreColor: '#000000',
      backgroundColor: '#ffffff',
      matchField: 'modality',
      value: 'CT',
    });
    const colors = (await admin.get('groups/demo-renhe/color-rules')).json() as { priority: number }[];
    expect(colors.map((c) => c.priority)).toEqual([0, 5]);
    expect(
      (
        await admin.post('groups/demo-renhe/color-rules', {
          name: 'bad',
          priority: 1,
          foreColor: 'red',
          backgroundColor: '#ffffff',
          matchField: 'modality',
          value: 'CT',
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('auditLogOn', () => {
  it('when off, configuration edits are not logged but security events still are', async () => {
    const platform = as(await t.login('admin'));
    const admin = as(await t.login('groupadmin'));
    const auditor = as(await t.login('auditor'));
    const rad = ((await admin.get('groups/demo-renhe/organizations')).json() as { id: string; code: string }[]).find(
      (o) => o.code === 'RH-RAD',
    )!;
    const count = async (action: string) =>
      ((await auditor.post('domains/audit-logs?groupId=demo-renhe', { action, limit: 200 })).json().logs as unknown[])
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

describe('group settings and members', () => {
  it('updates flags, settings and attribute labels; refuses unknown ones', async () => {
    const admin = as(await t.login('groupadmin'));
    const res = await admin.post('groups/demo-renhe/update', {
      settings: { enableCalling: false, dobMatchMode: 'shift_on' },
      attributes: { urgentNotes: { enabled: true, label: '加急说明' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toMatchObject({ enableCalling: false, dobMatchMode: 'shift_on', enableRegistry: true });
    expect((await admin.get('groups/demo-renhe/attributes')).json()).toEqual({
      urgentNotes: { enabled: true, label: '加急说明' },
    });
    for (const body of [
      { settings: { enableTeleport: true } },
      { settings: { dobMatchMode: 'fuzzy' } },
      { attributes: { other: { enabled: true, label: 'x' } } },
    ]) {
      expect((await admin.post('groups/demo-renhe/update', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const member = as(await t.login('doctor'));
    expect((await member.post('groups/demo-renhe/update', { settings: { enableCalling: true } })).statusCode).toBe(403);
    expect((await member.get('groups/demo-renhe')).json()).toMatchObject({ accessLevel: 0, allowedAccessLevels: [] });
  });

  it('invites, changes, removes members, and lets a member quit', async () => {
    const admin = as(await t.login('groupadmin'));
    const teledoc = await t.login('teledoctor');
    const teledocId = (await as(teledoc).get('accounts/me')).json().id;
    expect(
      (await admin.post('groups/demo-renhe/members/invite', { accountIds: ['missing'], accessLevel: 0 })).statusCode,
    ).toBe(400);
    expect(
      (await admin.post('groups/demo-renhe/members/invite', { accountIds: [teledocId], accessLevel: 5 })).statusCode,
    ).toBe(400);
    expect(
      (await admin.post('groups/demo-renhe/members/invite', { accountIds: [teledocId], accessLevel: 0 })).json(),
    ).toEqual({ added: [teledocId] });
    expect((await as(teledoc).get('groups/demo-renhe')).statusCode).toBe(200);
    expect((await admin.put(`groups/demo-renhe/members/${teledocId}`, { accessLevel: 9 })).statusCode).toBe(204);
    const q = await admin.post('groups/demo-renhe/members/query', { q: 'teledoc' });
    expect(q.json()).toMatchObject({ count: 1, members: [{ username: 'teledoctor', accessLevel: 9 }] });
    expect((await admin.del(`groups/demo-renhe/members/${teledocId}`)).statusCode).toBe(204);
    expect((await as(teledoc).get('groups/demo-renhe')).statusCode).toBe(404);
    await admin.post('groups/demo-renhe/members/invite', { accountIds: [teledocId], accessLevel: 0 });
    expect((await as(teledoc).post('groups/demo-renhe/quit')).statusCode).toBe(204);
    expect((await as(teledoc).get('groups/demo-renhe')).statusCode).toBe(404);
  });
});
