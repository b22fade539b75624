import { DEFAULT_ANNOUNCEMENT_TEMPLATE, type CallingBucket, type QueueType } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, queueTypes } from '../../db/schema.js';
import { joinGroup, makeAccount, makeMember } from '../../test/factories.js';
import { arrivePatient, lines, makeQueueType, queueOf } from '../../test/factories-calling.js';
import { makeDesk, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * The organization's call queues and calling settings (spec 000 §2 organization settings "call
 * queues", §6 calling_manage_queue; spec 001 §7 queue-types calls; issue 23): who may read and
 * change them, their limits, other tenants, and the group's enableCalling switch.
 */
let t: TestApp;
let desk: Desk;
let other: Desk;
let groupAdmin: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t, { name: '乙城放射科' });
  const admin = await makeAccount(t);
  await joinGroup(t, desk.org.groupId, admin.accountId, 1);
  groupAdmin = admin.token;
});
afterAll(async () => {
  await t.close();
});

const db = () => t.db.database.db;
const add = (token: string, body: Record<string, unknown>) => t.as(token).post('queue-types/add', body);
const list = (token: string, bucketId = desk.org.bucketId) => t.as(token).get(`buckets/${bucketId}/queue-types`);

describe('queue types', () => {
  let ct: QueueType;

  it('are added by whoever manages the queue, upper-casing the modality, and listed in the order added (by name when added at once)', async () => {
    const res = await add(desk.registrar.token, {
      bucketId: desk.org.bucketId,
      displayName: 'CT 1',
      modality: 'ct',
      roomName: 'CT 1 诊室',
    });
    expect(res.statusCode, res.body).toBe(201);
    ct = res.json() as QueueType;
    expect(ct).toMatchObject({ bucketId: desk.org.bucketId, displayName: 'CT 1', modality: 'CT', urgentFirst: true });
    const mr = await makeQueueType(t, desk, { displayName: 'MR', modality: 'MR', urgentFirst: false });
    // the technician (calling_call) reads them, as the calling screen does
    const listed = await list(desk.tech.token);
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as QueueType[]).map((q) => [q.displayName, q.roomName, q.urgentFirst])).toEqual([
      ['CT 1', 'CT 1 诊室', true],
      ['MR', '', false],
    ]);
    expect(mr.id).not.toBe(ct.id);
    const audited = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'calling.queue_type.add'), eq(auditLogs.targetId, ct.id)));
    expect(audited).toHaveLength(1);
  });

  it('refuse bad input with 400 and a second queue of the same name with 409, changing nothing', async () => {
    const before = await db().select().from(queueTypes).where(eq(queueTypes.bucketId, desk.org.bucketId));
    const base = { bucketId: desk.org.bucketId, displayName: 'DX', modality: 'DX' };
    for (const body of [
      { ...base, displayName: '' },
      { ...base, displayName: 'x'.repeat(33) },
      { ...base, modality: '' },
      { ...base, modality: 'x'.repeat(17) },
      { ...base, roomName: 'x'.repeat(33) },
      { ...base, urgentFirst: 'yes' },
      { ...base, extra: 1 },
      { displayName: 'DX', modality: 'DX' },
    ]) {
      expect((await add(desk.registrar.token, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const dup = await add(desk.registrar.token, { ...base, displayName: 'CT 1' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'NameNotAvailable' });
    const after = await db().select().from(queueTypes).where(eq(queueTypes.bucketId, desk.org.bucketId));
    expect(after).toHaveLength(before.length);
  });

  it('are changed with update, keeping the names unique', async () => {
    const res = await t.as(desk.registrar.token).post(`queue-types/${ct.id}/update`, {
      displayName: 'CT 一号',
      modality: 'CT',
      roomName: 'CT 1',
      urgentFirst: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: ct.id, displayName: 'CT 一号', roomName: 'CT 1', urgentFirst: false });
    const clash = await t.as(desk.registrar.token).post(`queue-types/${ct.id}/update`, {
      displayName: 'MR',
      modality: 'CT',
    });
    expect(clash.statusCode).toBe(409);
    const bad = await t.as(desk.registrar.token).post(`queue-types/${ct.id}/update`, { displayName: 'x' });
    expect(bad.statusCode).toBe(400);
  });

  it('need calling_manage_queue to change (403 for the technician), and a caller of another group sees nothing (404)', async () => {
    expect(
      (await add(desk.tech.token, { bucketId: desk.org.bucketId, displayName: 'US', modality: 'US' })).statusCode,
    ).toBe(403);
    const upd = { displayName: 'x', modality: 'CT' };
    expect((await t.as(desk.tech.token).post(`queue-types/${ct.id}/update`, upd)).statusCode).toBe(403);
    expect((await t.as(desk.tech.token).del(`queue-types/${ct.id}/delete`)).statusCode).toBe(403);
    // the reporting doctor holds neither calling action
    expect((await list(desk.doctor.token)).statusCode).toBe(403);
    for (const res of [
      await add(other.registrar.token, { bucketId: desk.org.bucketId, displayName: 'US', modality: 'US' }),
      await t.as(other.registrar.token).post(`queue-types/${ct.id}/update`, upd),
      await t.as(other.registrar.token).del(`queue-types/${ct.id}/delete`),
      await list(other.registrar.token),
      await t.as(desk.registrar.token).post('queue-types/nope/update', upd),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.body).not.toContain('CT 一号');
    }
  });

  it('are deleted only when none of their patients of today is still open', async () => {
    const us = await makeQueueType(t, desk, { displayName: 'US', modality: 'US' });
    await arrivePatient(t, desk, { name: '王^小东', modality: 'US' });
    const refused = await t.as(desk.registrar.token).del(`queue-types/${us.id}/delete`);
    expect(refused.statusCode).toBe(409);
    const [exam] = (await queueOf(t, desk.tech.token, desk.org.bucketId, { queueTypeId: us.id })).items;
    expect((await t.as(desk.tech.token).post(`queue-exams/${exam!.id}/action`, { action: 'done' })).statusCode).toBe(
      200,
    );
    expect((await t.as(desk.registrar.token).del(`queue-types/${us.id}/delete`)).statusCode).toBe(204);
    expect((await list(desk.registrar.token)).json().map((q: QueueType) => q.displayName)).toEqual(['CT 一号', 'MR']);
  });
});

describe('calling settings', () => {
  const url = () => `buckets/${desk.org.bucketId}/calling-settings`;

  it('answer the default template until saved, and keep what the manager saves', async () => {
    const res = await t.as(desk.tech.token).get(url());
    expect(res.json()).toEqual({ announcementTemplate: DEFAULT_ANNOUNCEMENT_TEMPLATE, speakFullName: false });
    const saved = await t.as(desk.registrar.token).put(url(), {
      announcementTemplate: '{号} 号 {姓名} 请到 {诊室}',
      speakFullName: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await t.as(desk.tech.token).get(url())).json()).toEqual({
      announcementTemplate: '{号} 号 {姓名} 请到 {诊室}',
      speakFullName: true,
    });
  });

  it('refuse an unknown placeholder, an empty or long template, the technician and another group', async () => {
    for (const body of [
      { announcementTemplate: '{号} {名字}' },
      { announcementTemplate: '' },
      { announcementTemplate: 'x'.repeat(201) },
      { speakFullName: 'yes' },
    ]) {
      expect((await t.as(desk.registrar.token).put(url(), body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.as(desk.tech.token).put(url(), {})).statusCode).toBe(403);
    expect((await t.as(other.registrar.token).put(url(), {})).statusCode).toBe(404);
    expect((await t.as(other.registrar.token).get(url())).statusCode).toBe(404);
    expect((await t.as(desk.tech.token).get(url())).json()).toMatchObject({ speakFullName: true });
  });
});

describe('calling-buckets and the group switch enableCalling', () => {
  const buckets = async (token: string) =>
    ((await t.as(token).get('calling-buckets')).json() as CallingBucket[]).map((b) => [b.name, b.actions]);
  const setCalling = async (on: boolean) => {
    const res = await t.as(groupAdmin).post(`groups/${desk.org.groupId}/update`, { settings: { enableCalling: on } });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('list the organizations where the caller calls or manages, with the calling actions held', async () => {
    expect(await buckets(desk.registrar.token)).toEqual([['放射科', ['calling_call', 'calling_manage_queue']]]);
    expect(await buckets(desk.tech.token)).toEqual([['放射科', ['calling_call']]]);
    expect(await buckets(desk.doctor.token)).toEqual([]);
    const plain = await makeMember(t, desk.org.bucketId);
    expect(await buckets(plain.token)).toEqual([]);
  });

  it("take the group's organizations off and refuse their calls 403 while calling is off", async () => {
    await setCalling(false);
    expect(await buckets(desk.tech.token)).toEqual([]);
    expect(await buckets(other.tech.token)).toEqual([['乙城放射科', ['calling_call']]]);
    for (const res of [
      await list(desk.tech.token),
      await add(desk.registrar.token, { bucketId: desk.org.bucketId, displayName: 'US', modality: 'US' }),
      await t.as(desk.tech.token).post('queue-exams/query', { bucketId: desk.org.bucketId }),
      await t.as(desk.tech.token).get(`queue-exams/calling?bucketId=${desk.org.bucketId}`),
      await t.as(desk.registrar.token).get(`buckets/${desk.org.bucketId}/screen-tokens`),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'InsufficientPermissions', details: { action: 'enableCalling' } });
    }
    // an arrival while calling is off checks into no queue
    await arrivePatient(t, desk, { name: '李^四', modality: 'MR' });
    await setCalling(true);
    expect(lines(await queueOf(t, desk.tech.token, desk.org.bucketId, { statuses: ['waiting'] }))).toEqual([]);
    expect(await buckets(desk.tech.token)).toEqual([['放射科', ['calling_call']]]);
  });
});
