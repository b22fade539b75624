import { DEMO_URGENT_COLOR_RULE } from '@yyp/contracts';
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

let t: TestApp;
let groupId: string;
const tok: Record<string, string> = {};
let teledoctor: BuiltAccount;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // A hospital: its radiology (RH-RAD) with its admin, a doctor, a note-taker (a collaborator
  // holding a reporting role) and a senior doctor; an ultrasound where the senior is content
  // manager; an assign rule and a colour rule. Someone of another group, teledoctor.
  const rad = await makeOrganization(t, { code: 'RH-RAD', name: '放射科' });
  groupId = rad.groupId;
  const us = await makeOrganization(t, { groupId, code: 'RH-US', name: '超声科' });
  const groupadmin = await makeGroupMember(t, groupId, 1);
  await joinOrganization(t, rad.bucketId, groupadmin.accountId, { level: 'admin', groupLevel: 1 });
  tok.groupadmin = groupadmin.token;
  const reporting = [
    'exam_get',
    'exam_update',
    'view_privacy',
    'report_upsert',
    'report_trace',
    'report_print',
  ] as const;
  tok.doctor = (await makeMember(t, rad.bucketId, { actions: reporting })).token;
  tok.notetaker = (await makeMember(t, rad.bucketId, { level: 'collaborator', actions: reporting })).token;
  const senior = await makeMember(t, rad.bucketId, { actions: ['exam_get', 'report_approval'] });
  await joinOrganization(t, us.bucketId, senior.accountId, { level: 'contentManager' });
  tok.senior = senior.token;
  teledoctor = await makeAccount(t, { username: 'teledoctor' });
  const admin = t.as(groupadmin.token);
  const tag = await admin.post(`buckets/${rad.bucketId}/tags`, { name: '随访' });
  const rule = await admin.post(`groups/${groupId}/rules`, {
    name: 'CT 默认分配',
    bucketIds: [rad.bucketId],
    doctorId: null,
    modality: 'CT',
    memberIds: [],
    priority: 1,
  });
  // the demo groups' urgent rule (急诊, red), without its list position
  const { index: _index, ...urgent } = DEMO_URGENT_COLOR_RULE;
  const color = await admin.post(`groups/${groupId}/color-rules`, urgent);
  for (const res of [tag, rule, color]) expect(res.statusCode, res.body).toBe(201);
});
afterAll(async () => {
  await t.close();
});

const as = (token: string) => t.as(token);

describe('organization details', () => {
  it('keeps tags to 10 characters, names unique, and shows department 0 as none', async () => {
    const admin = as(tok.groupadmin!);
    const rad = ((await admin.get(`groups/${groupId}/organizations`)).json() as { id: string; code: string }[]).find(
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
    const admin = as(tok.groupadmin!);
    const rad = ((await admin.get(`groups/${groupId}/organizations`)).json() as { id: string; code: string }[]).find(
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
    const notetaker = (await as(tok.notetaker!).get('accounts/me/permissions')).json() as {
      actions: string[];
    }[];
    const rad = notetaker.find(() => true)!;
    // Report actions, and reading the exams it reports (issue 20 item 2); no other exam action.
    expect(rad.actions.every((a) => a.startsWith('report_') || a === 'exam_get')).toBe(true);
    expect(rad.actions).toEqual(expect.arrayContaining(['report_upsert', 'exam_get']));
    const senior = (await as(tok.senior!).get('accounts/me/permissions')).json() as {
      accessLevel: string;
      actions: string[];
    }[];
    const cm = senior.find((p) => p.accessLevel === 'contentManager')!;
    expect(cm.actions).toEqual(
      expect.arrayContaining(['exam_delete', 'export_exams', 'report_approval', 'attachment_delete']),
    );
  });

  it("stores assign and color rules naming only the group's own organizations and members", async () => {
    const admin = as(tok.groupadmin!);
    const rules = (await admin.get(`groups/${groupId}/rules`)).json() as { bucketIds: string[] }[];
    expect(rules).toHaveLength(1);
    const foreign = await admin.post(`groups/${groupId}/rules`, {
      name: 'x',
      bucketIds: ['nope'],
      doctorId: null,
      modality: 'MR',
      memberIds: [],
      priority: 2,
    });
    expect(foreign.statusCode).toBe(400);
    const ok = await admin.post(`groups/${groupId}/rules`, {
      name: 'MR',
      bucketIds: rules[0]!.bucketIds,
      doctorId: null,
      modality: 'MR',
      memberIds: [],
      priority: 2,
    });
    expect(ok.statusCode).toBe(201);
    await admin.post(`groups/${groupId}/color-rules`, {
      name: '低优先',
      priority: 5,
      foreColor: '#000000',
      backgroundColor: '#ffffff',
      matchField: 'modality',
      value: 'CT',
    });
    const colors = (await admin.get(`groups/${groupId}/color-rules`)).json() as { priority: number }[];
    expect(colors.map((c) => c.priority)).toEqual([0, 5]);
    expect(
      (
        await admin.post(`groups/${groupId}/color-rules`, {
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

describe('group settings and members', () => {
  it('updates flags, settings and attribute labels; refuses unknown ones', async () => {
    const admin = as(tok.groupadmin!);
    const res = await admin.post(`groups/${groupId}/update`, {
      settings: { enableCalling: false, dobMatchMode: 'shift_on' },
      attributes: { urgentNotes: { enabled: true, label: '加急说明' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toMatchObject({ enableCalling: false, dobMatchMode: 'shift_on', enableRegistry: true });
    expect((await admin.get(`groups/${groupId}/attributes`)).json()).toEqual({
      urgentNotes: { enabled: true, label: '加急说明' },
    });
    for (const body of [
      { settings: { enableTeleport: true } },
      { settings: { dobMatchMode: 'fuzzy' } },
      { attributes: { other: { enabled: true, label: 'x' } } },
    ]) {
      expect((await admin.post(`groups/${groupId}/update`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const member = as(tok.doctor!);
    expect((await member.post(`groups/${groupId}/update`, { settings: { enableCalling: true } })).statusCode).toBe(403);
    expect((await member.get(`groups/${groupId}`)).json()).toMatchObject({ accessLevel: 0, allowedAccessLevels: [] });
  });

  it('invites, changes, removes members, and lets a member quit', async () => {
    const admin = as(tok.groupadmin!);
    const teledoc = teledoctor.token;
    const teledocId = (await as(teledoc).get('accounts/me')).json().id;
    expect(
      (await admin.post(`groups/${groupId}/members/invite`, { accountIds: ['missing'], accessLevel: 0 })).statusCode,
    ).toBe(400);
    expect(
      (await admin.post(`groups/${groupId}/members/invite`, { accountIds: [teledocId], accessLevel: 5 })).statusCode,
    ).toBe(400);
    expect(
      (await admin.post(`groups/${groupId}/members/invite`, { accountIds: [teledocId], accessLevel: 0 })).json(),
    ).toEqual({ added: [teledocId] });
    expect((await as(teledoc).get(`groups/${groupId}`)).statusCode).toBe(200);
    expect((await admin.put(`groups/${groupId}/members/${teledocId}`, { accessLevel: 9 })).statusCode).toBe(204);
    const q = await admin.post(`groups/${groupId}/members/query`, { q: 'teledoc' });
    expect(q.json()).toMatchObject({ count: 1, members: [{ username: 'teledoctor', accessLevel: 9 }] });
    expect((await admin.del(`groups/${groupId}/members/${teledocId}`)).statusCode).toBe(204);
    expect((await as(teledoc).get(`groups/${groupId}`)).statusCode).toBe(404);
    await admin.post(`groups/${groupId}/members/invite`, { accountIds: [teledocId], accessLevel: 0 });
    expect((await as(teledoc).post(`groups/${groupId}/quit`)).statusCode).toBe(204);
    expect((await as(teledoc).get(`groups/${groupId}`)).statusCode).toBe(404);
  });
});
