import type { CriticalValue, CriticalValuePage, QualityPage } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, criticalValues, exams } from '../../db/schema.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { makeHospital, signInStaff, type Hospital } from '../../test/factories-reports.js';
import { approvedReport, newExam } from '../../test/report-safety.fixture.js';

/** Reviewing critical values and quality grades across reports (critical-values/page-query, quality/page-query). */

let t: TestApp;
let h: Hospital;
let tok: Record<string, string> = {};
let radiology = '';
let ultrasound = '';
const as = (who: string) => t.as(tok[who]!);
const db = () => t.db.database.db;
const readBack = { receiver: '张护士', confirmor: '刘建国', readbackOpinion: '右侧气胸，已复述' };
const DAY = 86_400_000;

async function report(who: string, id: string, text: string): Promise<CriticalValue> {
  const res = await as(who).post(`reports/${id}/critical-value`, { text });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CriticalValue;
}
async function page(who: string, body: Record<string, unknown>): Promise<CriticalValuePage> {
  const res = await as(who).post('critical-values/page-query', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CriticalValuePage;
}
/** Moves the clock to a fresh UTC day and signs everyone in again (tokens age with the clock). */
async function freshDay(): Promise<string> {
  t.clock.advance(2 * DAY);
  await signInStaff(t, h);
  return t.clock.now().toISOString().slice(0, 10);
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // Masking as a caller without view_privacy in a privacy-on group sees it (doctor masked, senior not).
  const staff = ['doctor', 'senior', 'tech', 'registrar', 'teleadmin', 'groupadmin'] as const;
  h = await makeHospital(t, staff, { privacy: true });
  ({ tok, radiology, ultrasound } = h);
});
afterAll(async () => {
  await t.close();
});

describe('critical values across reports', () => {
  it('lists the values of the caller’s organizations with their exams, masked without view_privacy', async () => {
    const day = await freshDay();
    const first = await newExam(t, radiology);
    const confidential = await newExam(t, radiology);
    await db().update(exams).set({ isPrivacy: true }).where(eq(exams.id, confidential));
    const a = await report('doctor', first, '右侧气胸');
    t.clock.advance(60_000);
    const b = await report('senior', confidential, '主动脉夹层');
    t.clock.advance(60_000);
    const elsewhere = await report('doctor', await newExam(t, ultrasound), '急性脑出血');

    // The registry desk (no view_privacy) follows values up: masked names, canFollow.
    const desk = await page('registrar', { from: day, to: day });
    expect(desk.data.map((d) => d.id)).toEqual([b.id, a.id]);
    expect(desk.data.find((d) => d.id === a.id)).toMatchObject({
      reportId: first,
      status: 'sent',
      text: '右侧气胸',
      reporter: { name: '李医生' },
      bucketId: radiology,
      bucketName: '放射科',
      patientName: '危*',
      modality: 'CT',
      canFollow: true,
    });
    expect(desk).toMatchObject({ count: 2, byStatus: { sent: 2, received: 0, handled: 0 } });

    // The approving doctor (view_privacy) sees names, a confidential exam's too (issue 20 item 1);
    // the ultrasound value too.
    const senior = await page('senior', { from: day, to: day });
    expect(senior.data.map((d) => d.id)).toEqual([elsewhere.id, b.id, a.id]);
    expect(senior.data.find((d) => d.id === a.id)?.patientName).toBe('危^急');
    expect(senior.data.find((d) => d.id === b.id)?.patientName).toBe('危^急');
    // senior manages ultrasound's content (report rights included), so it follows values up there too.
    expect(senior.data.find((d) => d.id === elsewhere.id)).toMatchObject({ bucketName: '超声科', canFollow: true });
    // registrar is no member of ultrasound: none of its values.
    expect(desk.data.some((d) => d.bucketId === ultrasound)).toBe(false);

    // A technician reads the exams (exam_get) but does not follow values up.
    expect((await page('tech', { from: day, to: day })).data.every((d) => !d.canFollow)).toBe(true);

    // One PHI audit row per page, naming the reports shown.
    const [audit] = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'critical_value.page'), eq(auditLogs.actorUsername, 'registrar')));
    expect(audit).toMatchObject({ targetType: 'report', bucketId: radiology });
    expect((audit!.details as { reportIds: string[] }).reportIds.sort()).toEqual([first, confidential].sort());
  });

  it('filters by status, period and organization; counts by status within the other filters', async () => {
    const day = await freshDay();
    const ids = [await newExam(t, radiology), await newExam(t, radiology), await newExam(t, radiology)];
    const values = [];
    for (const id of ids) {
      values.push(await report('doctor', id, '气胸'));
      t.clock.advance(60_000);
    }
    const [v0, v1] = values;
    expect(
      (await as('registrar').post(`reports/${ids[0]}/critical-values/${v0!.id}/receive`, readBack)).statusCode,
    ).toBe(200);
    expect(
      (await as('registrar').post(`reports/${ids[1]}/critical-values/${v1!.id}/receive`, readBack)).statusCode,
    ).toBe(200);
    expect((await as('senior').post(`reports/${ids[1]}/critical-values/${v1!.id}/handle`, {})).statusCode).toBe(200);

    const received = await page('registrar', { status: 'received', from: day, to: day });
    expect(received.data.map((d) => d.id)).toEqual([v0!.id]);
    expect(received.data[0]).toMatchObject({ receiver: '张护士', readbackOpinion: '右侧气胸，已复述' });
    expect(received).toMatchObject({ count: 1, byStatus: { sent: 1, received: 1, handled: 1 } });
    const handled = await page('registrar', { status: 'handled', from: day, to: day });
    expect(handled.data[0]).toMatchObject({ id: v1!.id, handler: { name: '王主任' } });

    // The period bounds the sending time: a later day has none of them; a page limits and skips.
    const tomorrow = new Date(t.clock.now().getTime() + DAY).toISOString().slice(0, 10);
    expect((await page('registrar', { from: tomorrow })).count).toBe(0);
    const limited = await page('registrar', { from: day, to: day, limit: 2, skip: 1 });
    expect(limited).toMatchObject({ count: 3 });
    expect(limited.data.map((d) => d.id)).toEqual([values[1]!.id, values[0]!.id]);

    // One organization named: only its values.
    expect((await page('senior', { bucketId: radiology, from: day, to: day })).count).toBe(3);
    expect((await page('senior', { bucketId: ultrasound, from: day, to: day })).count).toBe(0);
  });

  it('refuses a reversed period and unknown fields, and changes nothing', async () => {
    const bad = [
      { from: '2026-11-02', to: '2026-11-01' },
      { from: 'yesterday' },
      { status: 'open' },
      { patientName: '危' },
    ];
    for (const body of bad) {
      const res = await as('registrar').post('critical-values/page-query', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ValidationError' });
    }
  });

  it('shows another group nothing: 404 for an organization it cannot see, 403 without the rights', async () => {
    const day = await freshDay();
    const v = await report('doctor', await newExam(t, radiology), '机密气胸');
    const tele = await page('teleadmin', { from: day, to: day });
    expect(tele).toEqual({ data: [], count: 0, byStatus: { sent: 0, received: 0, handled: 0 } });
    const named = await as('teleadmin').post('critical-values/page-query', { bucketId: radiology });
    expect(named.statusCode).toBe(404);
    expect(named.body).not.toContain('机密');
    // The group admin administers radiology but reads no reports there.
    expect((await as('groupadmin').post('critical-values/page-query', { bucketId: radiology })).statusCode).toBe(403);
    expect((await page('groupadmin', { from: day, to: day })).count).toBe(0);
    expect((await db().select().from(criticalValues).where(eq(criticalValues.id, v.id)))[0]!.status).toBe('sent');
  });

  it('leaves out the values of deleted exams', async () => {
    const day = await freshDay();
    const id = await newExam(t, radiology);
    await report('doctor', id, '气胸');
    expect((await page('registrar', { from: day, to: day })).count).toBe(1);
    await db().update(exams).set({ deletedTime: t.clock.now() }).where(eq(exams.id, id));
    expect((await page('registrar', { from: day, to: day })).count).toBe(0);
  });
});

describe('quality review by grading time', () => {
  it('bounds the grading time with from and to, a date `to` inclusive; a reversed period is refused', async () => {
    const day = await freshDay();
    const a = await approvedReport(t, radiology, tok.doctor!, tok.senior!);
    expect((await as('senior').post(`reports/${a}/quality`, { level: 'B' })).statusCode).toBe(200);
    t.clock.advance(DAY);
    await signInStaff(t, h, ['doctor', 'senior']);
    const next = t.clock.now().toISOString().slice(0, 10);
    const b = await approvedReport(t, radiology, tok.doctor!, tok.senior!);
    expect((await as('senior').post(`reports/${b}/quality`, { level: 'B' })).statusCode).toBe(200);

    const query = async (body: Record<string, unknown>) => {
      const res = await as('senior').post(`quality/page-query?bucketId=${radiology}`, body);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as QualityPage).data.map((d) => d.reportId);
    };
    expect(await query({ from: day, to: day })).toEqual([a]);
    expect(await query({ from: next })).toEqual([b]);
    expect(await query({ from: day, to: next, level: 'B' })).toEqual([b, a]);
    expect(await query({ from: day, to: next, level: 'A' })).toEqual([]);
    const reversed = await as('senior').post(`quality/page-query?bucketId=${radiology}`, { from: next, to: day });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toMatchObject({ code: 'ValidationError' });
  });
});
