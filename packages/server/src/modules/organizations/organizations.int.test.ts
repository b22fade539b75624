import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const as = (token: string) => t.as(token);

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
    // Report actions, and reading the exams it reports (issue 20 item 2); no other exam action.
    expect(rad.actions.every((a) => a.startsWith('report_') || a === 'exam_get')).toBe(true);
    expect(rad.actions).toEqual(expect.arrayContaining(['report_upsert', 'exam_get']));
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
