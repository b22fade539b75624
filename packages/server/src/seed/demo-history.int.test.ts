import {
  DEMO_PASSWORD,
  hospitalDate,
  MIN_PACE_SAMPLES,
  predictedWait,
  type QueuePage,
  type StatTable,
  type TurnaroundSlowest,
} from '@yyp/contracts';
import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  buckets,
  examSteps,
  exams,
  queueExams,
  registrations,
  reports,
  scheduledExams,
} from '../db/schema.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { seedDemoHistory } from './demo-history.js';

/**
 * The demo's reporting history (seed/demo-history.ts) and its front-desk records
 * (seed/demo-history-desk.ts), which the statistics count at first start: last month's workload
 * and positive rate, and the turnaround from registration to approval with its slowest exams.
 */
let t: TestApp;
let token = '';
const now = new Date('2026-11-28T03:00:00Z');
/** Last month of `now` in hospital days, as the statistics page's preset takes it. */
const october = { from: '2026-10-01', to: '2026-10-31' };
const db = () => t.db.database.db;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const stat = async <T = StatTable>(path: string, query: Record<string, string>) => {
  const res = await t.as(token).get(`${path}?${new URLSearchParams({ ...october, ...query }).toString()}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};

/** The history's scheduled exams (RH-H-…) with their registration and the exam they link. */
const deskRows = () =>
  db()
    .select({ se: scheduledExams, reg: registrations, registrar: accounts.username })
    .from(scheduledExams)
    .innerJoin(registrations, eq(registrations.id, scheduledExams.registrationId))
    .innerJoin(accounts, eq(accounts.id, registrations.createdBy))
    .where(like(scheduledExams.accessionNumber, 'RH-H-%'));

describe('demo report history', () => {
  let n = 0;

  it('stores approved reports of RH-RAD between 8 and 50 days back, once', async () => {
    n = await seedDemoHistory(db(), now);
    expect(n).toBeGreaterThan(100);
    const rows = await db()
      .select({ bucket: buckets.code, created: exams.created, status: reports.status, content: reports.content })
      .from(exams)
      .innerJoin(buckets, eq(buckets.id, exams.bucketId))
      .innerJoin(reports, eq(reports.id, exams.id))
      .where(like(exams.accessionNumber, 'RH-H-%'));
    expect(rows).toHaveLength(n);
    const days = rows.map((r) => hospitalDate(r.created));
    expect(rows.every((r) => r.bucket === 'RH-RAD' && r.status === 'corrected')).toBe(true);
    expect(days.every((d) => d >= hospitalDate(now, -50) && d <= hospitalDate(now, -8))).toBe(true);
    const positive = rows.filter((r) => r.content.positive).length;
    expect(positive).toBeGreaterThan(0);
    expect(positive).toBeLessThan(n);
    // A second start adds nothing, at the desk either.
    const registered = (await deskRows()).length;
    expect(await seedDemoHistory(db(), now)).toBe(0);
    expect(await deskRows()).toHaveLength(registered);
  });

  it('registers nearly every exam at the desk: the registrar, arrival, performance, the CT queue and its call', async () => {
    const rows = await deskRows();
    const history = await db()
      .select({ id: exams.id, accessionNumber: exams.accessionNumber, created: exams.created })
      .from(exams)
      .where(like(exams.accessionNumber, 'RH-H-%'));
    // A few emergencies scanned without a registration; every other exam has exactly one.
    expect(rows.length).toBeGreaterThanOrEqual(Math.floor(n * 0.85));
    expect(rows.length).toBeLessThan(n);
    const byExam = new Map(history.map((e) => [e.id, e]));
    expect(new Set(rows.map((r) => r.se.examId)).size).toBe(rows.length);
    for (const { se, reg, registrar } of rows) {
      const exam = byExam.get(se.examId!)!;
      expect(se.accessionNumber).toBe(exam.accessionNumber);
      expect(se.status).toBe('Performed');
      expect(registrar).toBe('registrar');
      expect(reg.bucketId).toBe(se.bucketId);
      expect(se.created.getTime()).toBeLessThan(se.arrivedAt!.getTime());
      expect(se.arrivedAt!.getTime()).toBeLessThan(se.performedAt!.getTime());
      expect(se.performedAt!.getTime()).toBe(exam.created.getTime());
      expect(se.scheduledDate).toBe(hospitalDate(exam.created));
    }
    // The CTs on the demo's device, in the CT queue: called to its room, done.
    const cts = rows.filter((r) => r.se.modality === 'CT');
    expect(cts.length).toBeGreaterThan(0);
    expect(cts.every((r) => r.se.deviceId !== null && r.se.procedureCode.startsWith('CT'))).toBe(true);
    const places = await db()
      .select()
      .from(queueExams)
      .where(
        inArray(
          queueExams.scheduledExamId,
          cts.map((r) => r.se.id),
        ),
      );
    expect(places).toHaveLength(cts.length);
    for (const p of places) {
      const se = cts.find((r) => r.se.id === p.scheduledExamId)!.se;
      expect(p).toMatchObject({ status: 'done', room: 'CT 1', checkInDate: se.scheduledDate, calledCount: 1 });
      expect(se.arrivedAt!.getTime()).toBeLessThan(p.calledAt!.getTime());
      expect(p.calledAt!.getTime()).toBeLessThan(se.performedAt!.getTime());
    }
    // exam_steps (migration 0045) holds every step of them, in order, up to the approval.
    const steps = await db()
      .select()
      .from(examSteps)
      .where(
        and(
          inArray(
            examSteps.id,
            rows.map((r) => r.se.id),
          ),
          eq(examSteps.live, true),
        ),
      );
    expect(steps).toHaveLength(rows.length);
    for (const s of steps) {
      const times = [s.registeredAt, s.arrivedAt, s.performedAt, s.firstSavedAt, s.submittedAt, s.approvedAt];
      expect(times.every((at) => at !== null)).toBe(true);
      const ms = times.map((at) => at!.getTime());
      expect([...ms].sort((a, b) => a - b)).toEqual(ms);
      if (s.modality === 'CT') expect(s.calledAt).not.toBeNull();
    }
  });

  it("gives the group admin last month's workload per doctor and positive rate per modality, as before", async () => {
    token = await t.login('groupadmin', DEMO_PASSWORD);
    const workload = await stat('statistics/report', { by: 'doctor' });
    expect(workload.rows.find((r) => r.label === '李医生')!.values.written).toBe(83);
    expect(workload.rows.find((r) => r.label === '王主任')!.values.approved).toBe(83);
    const positive = await stat('statistics/report-positive', { by: 'modality' });
    expect(positive.rows.find((r) => r.key === 'CT')!.values).toMatchObject({
      reports: 50,
      positive: 17,
      positiveRate: 0.34,
    });
  });

  it('shows last month’s turnaround from registration to approval by modality, a few past the target', async () => {
    const table = await stat('statistics/turnaround', { by: 'modality' });
    expect(table.rows.map((r) => r.key).sort()).toEqual(['CT', 'DX', 'MR']);
    for (const row of table.rows) {
      expect(row.values.exams).toBeGreaterThan(0);
      expect(row.values.medianMinutes).toBeGreaterThan(0);
      expect(row.values.p90Minutes).toBeGreaterThanOrEqual(row.values.medianMinutes!);
    }
    // Last month's approvals of registered exams: nearly all of the 83 reports.
    expect(table.totals.exams).toBeGreaterThanOrEqual(70);
    expect(table.totals.exams).toBeLessThan(83);
    // The demo group's target (480 minutes): a few exams, not most, took longer.
    expect(table.totals.overTarget).toBeGreaterThan(0);
    expect(table.totals.overTarget).toBeLessThan(table.totals.exams! / 3);
    const rooms = await stat('statistics/turnaround', { by: 'room' });
    expect(rooms.rows.find((r) => r.key === 'CT 室')!.values.exams).toBe(
      table.rows.find((r) => r.key === 'CT')!.values.exams,
    );
  });

  it('lists the slowest exams of last month, slowest first, past the target', async () => {
    const lists = await stat<TurnaroundSlowest>('statistics/turnaround/slowest', {});
    expect(lists.targetMinutes).toBe(480);
    expect(lists.slowest).toHaveLength(20);
    const minutes = lists.slowest.map((s) => s.minutes);
    expect([...minutes].sort((a, b) => b - a)).toEqual(minutes);
    expect(minutes[0]).toBeGreaterThan(480);
    expect(lists.slowest.every((s) => s.accessionNumber.startsWith('RH-H-') && s.doctor === '李医生')).toBe(true);
    expect(lists.slowest.every((s) => s.patientName !== '' && s.toAt !== null)).toBe(true);
    // Every history exam is approved: none is waiting past the target.
    expect(lists.overdue).toEqual([]);
  });

  it("gives the CT queue a pace from the history's morning lists: /calling predicts its wait", async () => {
    const registrar = await t.login('registrar', DEMO_PASSWORD);
    const [rad] = await db().select().from(buckets).where(eq(buckets.code, 'RH-RAD'));
    const res = await t.as(registrar).post('queue-exams/query', { bucketId: rad!.id });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as QueuePage;
    expect(page.predictions).toHaveLength(1);
    const ct = page.predictions![0]!;
    // A patient every 7 to 12 minutes on the lists of the last two weeks.
    expect(ct.samples).toBeGreaterThanOrEqual(MIN_PACE_SAMPLES);
    expect(ct.paceMinutes).toBeGreaterThanOrEqual(5);
    expect(ct.paceMinutes).toBeLessThanOrEqual(15);
    // From the unrounded median: within a minute of the rounded pace's.
    const expected = predictedWait(ct.paceMinutes, ct.waitingCount + 1)!;
    expect(Math.abs(ct.predictedWaitMinutes! - expected)).toBeLessThanOrEqual(1);
  });
});
