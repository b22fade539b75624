import type { CriticalValue, CriticalValueStats, ExamPage, NotificationList } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, bucketDictionary, criticalValues, exams, notifications } from '../../db/schema.js';
import { makeRole } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { CRITICAL_VALUES, makeHospital, signInStaff, type Hospital } from '../../test/factories-reports.js';
import { newExam } from '../../test/report-safety.fixture.js';

let t: TestApp;
let h: Hospital;
let tok: Record<string, string> = {};
let radiology = '';
const as = (who: string) => t.as(tok[who]!);
const db = () => t.db.database.db;

const accountId = async (username: string): Promise<string> => h.staff[username]!.accountId;
const flag = async (id: string) =>
  (await db().select({ f: exams.criticalFlag }).from(exams).where(eq(exams.id, id)))[0]!.f;

async function report(who: string, id: string, body: unknown): Promise<CriticalValue> {
  const res = await as(who).post(`reports/${id}/critical-value`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CriticalValue;
}
const readBack = { receiver: '张护士', confirmor: '刘建国', readbackOpinion: '右侧气胸，已复述' };

async function criticalKinds(who: string): Promise<string[]> {
  const res = await as(who).get('notifications');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as NotificationList).items.filter((n) => n.kind === 'critical_value').map((n) => n.exam.id);
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const staff = ['doctor', 'senior', 'tech', 'registrar', 'teleadmin', 'notetaker'] as const;
  h = await makeHospital(t, staff, { dictionary: { 'critical-values': CRITICAL_VALUES, tags: ['随访'] } });
  ({ tok, radiology } = h);
});
afterAll(async () => {
  await t.close();
});

describe('critical value lifecycle', () => {
  it('sent → received with read-back → handled; the flag stays up until handled; people are notified', async () => {
    const id = await newExam(t, radiology);
    const techId = await accountId('tech');
    await db().update(exams).set({ applyDept: '急诊科', assigneeId: techId }).where(eq(exams.id, id));
    const [item] = await db()
      .select()
      .from(bucketDictionary)
      .where(and(eq(bucketDictionary.bucketId, radiology), eq(bucketDictionary.name, '气胸')));

    const sent = await report('doctor', id, { text: '右侧气胸，肺压缩约40%', itemId: item!.id, level: '高' });
    expect(sent).toMatchObject({
      reportId: id,
      status: 'sent',
      notifyDept: '急诊科',
      itemId: item!.id,
      // The level word of old (高) is taken as its key; the text stays as typed, apart from it.
      level: 'high',
      text: '右侧气胸，肺压缩约40%',
      reporter: { name: '李医生' },
      receivedAt: null,
      handler: null,
    });
    expect(await flag(id)).toBe(true);

    // The study list shows it among the exams with a critical value.
    const list = await as('senior').post('exams/page-query', {
      filters: [{ field: 'critical', operator: 'eq', values: ['true'] }],
    });
    expect(list.statusCode, list.body).toBe(200);
    const page = list.json() as ExamPage;
    expect(page.exams.find((e) => e.id === id)?.critical).toBe(true);

    // Assignee (tech), approving doctor (senior) and registry desk (registrar) are told; not the reporter.
    expect(await criticalKinds('tech')).toContain(id);
    expect(await criticalKinds('senior')).toContain(id);
    expect(await criticalKinds('registrar')).toContain(id);
    expect(await criticalKinds('doctor')).not.toContain(id);

    // Handling needs the read-back first.
    const early = await as('senior').post(`reports/${id}/critical-values/${sent.id}/handle`, {});
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'CriticalValueWrongStatus', details: { status: 'sent' } });

    const missing = await as('registrar').post(`reports/${id}/critical-values/${sent.id}/receive`, {
      receiver: '张护士',
      confirmor: '',
      readbackOpinion: 'x',
    });
    expect(missing.statusCode).toBe(400);

    t.clock.advance(6 * 60_000);
    const received = await as('registrar').post(`reports/${id}/critical-values/${sent.id}/receive`, readBack);
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json()).toMatchObject({ status: 'received', ...readBack, receivedAt: t.clock.now().toISOString() });
    expect(await flag(id)).toBe(true);
    const again = await as('registrar').post(`reports/${id}/critical-values/${sent.id}/receive`, readBack);
    expect(again.statusCode).toBe(409);

    t.clock.advance(10 * 60_000);
    const handled = await as('senior').post(`reports/${id}/critical-values/${sent.id}/handle`, {
      handleNote: '已行胸腔闭式引流',
    });
    expect(handled.statusCode, handled.body).toBe(200);
    expect(handled.json()).toMatchObject({
      status: 'handled',
      handler: { name: '王主任' },
      handleNote: '已行胸腔闭式引流',
      handledAt: t.clock.now().toISOString(),
    });
    expect(await flag(id)).toBe(false);

    const listed = await as('doctor').get(`reports/${id}/critical-values`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({
      canReport: true,
      canFollow: true,
      items: [{ id: sent.id, status: 'handled', reporter: { name: '李医生' }, handler: { name: '王主任' } }],
    });

    const trail = await db().select().from(auditLogs).where(eq(auditLogs.targetId, id));
    expect(trail.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'critical_value.report',
        'critical_value.receive',
        'critical_value.handle',
        'critical_value.list',
      ]),
    );
  });

  it('keeps the flag up while any of the report’s critical values is not handled', async () => {
    const id = await newExam(t, radiology);
    const a = await report('doctor', id, { text: '主动脉夹层' });
    const b = await report('senior', id, { text: '急性脑出血' });
    for (const v of [a, b]) {
      expect((await as('registrar').post(`reports/${id}/critical-values/${v.id}/receive`, readBack)).statusCode).toBe(
        200,
      );
    }
    expect((await as('doctor').post(`reports/${id}/critical-values/${a.id}/handle`, {})).statusCode).toBe(200);
    expect(await flag(id)).toBe(true);
    expect((await as('doctor').post(`reports/${id}/critical-values/${b.id}/handle`, {})).statusCode).toBe(200);
    expect(await flag(id)).toBe(false);
    // A new one raises it again and brings the read notification back, unread.
    await db().update(notifications).set({ readAt: t.clock.now() }).where(eq(notifications.examId, id));
    await report('doctor', id, { text: '肺动脉栓塞' });
    expect(await flag(id)).toBe(true);
    const [note] = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.examId, id), eq(notifications.accountId, await accountId('senior'))));
    expect(note!.readAt).toBeNull();
  });

  it("keeps the level apart from the text: a level key, the item's level, or none; old rows read as keys", async () => {
    const id = await newExam(t, radiology);
    const [item] = await db()
      .select()
      .from(bucketDictionary)
      .where(and(eq(bucketDictionary.bucketId, radiology), eq(bucketDictionary.name, '主动脉夹层')));
    await db()
      .update(bucketDictionary)
      .set({ data: { level: 'medium' } })
      .where(eq(bucketDictionary.id, item!.id));

    const keyed = await report('doctor', id, { text: '主动脉夹层 Stanford A', level: 'low' });
    expect(keyed).toMatchObject({ text: '主动脉夹层 Stanford A', level: 'low' });
    const fromItem = await report('doctor', id, { text: '主动脉夹层', itemId: item!.id });
    expect(fromItem).toMatchObject({ text: '主动脉夹层', level: 'medium' });
    const none = await report('doctor', id, { text: '待定', level: '' });
    expect(none).toMatchObject({ text: '待定', level: '' });
    for (const level of ['urgent', 'x'.repeat(40), 3]) {
      const bad = await as('doctor').post(`reports/${id}/critical-value`, { text: '气胸', level });
      expect(bad.statusCode, JSON.stringify(level)).toBe(400);
    }
    // A row stored with a level word before levels were keys reads as the key; any other word as it is.
    await db().update(criticalValues).set({ level: '低' }).where(eq(criticalValues.id, keyed.id));
    await db().update(criticalValues).set({ level: '紧急' }).where(eq(criticalValues.id, none.id));
    const list = (await as('doctor').get(`reports/${id}/critical-values`)).json() as { items: CriticalValue[] };
    const levels = Object.fromEntries(list.items.map((v) => [v.id, [v.text, v.level]]));
    expect(levels[keyed.id]).toEqual(['主动脉夹层 Stanford A', 'low']);
    expect(levels[none.id]).toEqual(['待定', '紧急']);
  });

  it('refuses a text of 256 characters and writes nothing (spec 000 §5)', async () => {
    const id = await newExam(t, radiology);
    const res = await as('doctor').post(`reports/${id}/critical-value`, { text: '危'.repeat(256) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ValidationError' });
    expect(await db().select().from(criticalValues).where(eq(criticalValues.reportId, id))).toEqual([]);
    expect(await db().select().from(notifications).where(eq(notifications.examId, id))).toEqual([]);
    expect(await flag(id)).toBe(false);
    expect((await report('doctor', id, { text: '危'.repeat(255) })).text).toHaveLength(255);
  });

  it('needs the right to write or approve the report to report one, and follow-up rights to close it', async () => {
    const id = await newExam(t, radiology);
    const tech = await as('tech').post(`reports/${id}/critical-value`, { text: '气胸' });
    expect(tech.statusCode).toBe(403);
    expect(await flag(id)).toBe(false);
    const v = await report('doctor', id, { text: '气胸' });
    expect((await as('tech').post(`reports/${id}/critical-values/${v.id}/receive`, readBack)).statusCode).toBe(403);
    // A dictionary item of another kind or organization is not found.
    const [tag] = await db()
      .select()
      .from(bucketDictionary)
      .where(and(eq(bucketDictionary.bucketId, radiology), eq(bucketDictionary.kind, 'tags')));
    expect((await as('doctor').post(`reports/${id}/critical-value`, { text: 'x', itemId: tag!.id })).statusCode).toBe(
      404,
    );
    // Another report's critical value id is not found on this report.
    const other = await newExam(t, radiology);
    expect((await as('registrar').post(`reports/${other}/critical-values/${v.id}/receive`, readBack)).statusCode).toBe(
      404,
    );
  });

  it('answers another group 404 and none of the data', async () => {
    const id = await newExam(t, radiology);
    const v = await report('doctor', id, { text: '气胸' });
    const calls = [
      as('teleadmin').post(`reports/${id}/critical-value`, { text: '气胸' }),
      as('teleadmin').get(`reports/${id}/critical-values`),
      as('teleadmin').post(`reports/${id}/critical-values/${v.id}/receive`, readBack),
      as('teleadmin').post(`reports/${id}/critical-values/${v.id}/handle`, {}),
      as('teleadmin').get(`statistics/critical-value?bucketId=${radiology}&from=2026-11-01&to=2026-11-30`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('气胸');
    }
    expect((await db().select().from(criticalValues).where(eq(criticalValues.reportId, id))).length).toBe(1);
  });
});

describe('critical value statistics', () => {
  it('counts by status and gives the median minutes to read-back and handling (critical_value_stats)', async () => {
    const url = (from: string, to: string) => `statistics/critical-value?bucketId=${radiology}&from=${from}&to=${to}`;
    // The reporting doctor's role has no statistics (the approving role has them).
    expect((await as('doctor').get(url('2026-11-01', '2026-11-30'))).statusCode).toBe(403);
    await makeRole(t, radiology, ['critical_value_stats'], {
      name: '危急值统计',
      members: [await accountId('doctor')],
    });

    // A fresh organization-day: move the clock to a day nothing else was sent on.
    t.clock.advance(3 * 86_400_000);
    await signInStaff(t, h, ['doctor', 'senior', 'registrar']);
    const day = t.clock.now().toISOString().slice(0, 10);
    const ids = [await newExam(t, radiology), await newExam(t, radiology), await newExam(t, radiology)];
    const values = [];
    for (const id of ids) values.push({ id, v: await report('doctor', id, { text: '气胸' }) });
    // Read back after 4, 10 and (the third) never; the first handled 20 minutes after sending.
    t.clock.advance(4 * 60_000);
    await as('registrar').post(`reports/${ids[0]}/critical-values/${values[0]!.v.id}/receive`, readBack);
    t.clock.advance(6 * 60_000);
    await as('registrar').post(`reports/${ids[1]}/critical-values/${values[1]!.v.id}/receive`, readBack);
    t.clock.advance(10 * 60_000);
    await as('senior').post(`reports/${ids[0]}/critical-values/${values[0]!.v.id}/handle`, {});

    const res = await as('doctor').get(url(day, day));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      bucketId: radiology,
      from: `${day}T00:00:00.000Z`,
      to: expect.any(String),
      total: 3,
      byStatus: { sent: 1, received: 1, handled: 1 },
      medianMinutesToReceive: 7,
      medianMinutesToHandle: 20,
    } satisfies CriticalValueStats);

    expect((await as('doctor').get(url(day, '2020-01-01'))).statusCode).toBe(400);
    expect((await as('doctor').get(url('2024-01-01', day))).statusCode).toBe(400);
    expect((await as('doctor').get(`statistics/critical-value?bucketId=${radiology}&from=${day}`)).statusCode).toBe(
      400,
    );
  });
});
