import crypto from 'node:crypto';
import { demoRoles, EMPTY_REPORT_CONTENT, hospitalDate, type StatTable, type TurnaroundSlowest } from '@yyp/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examSteps, modalities, reports, scheduledExams } from '../../db/schema.js';
import {
  makeExam,
  makeGroupMember,
  makeMember,
  signIn,
  type BuiltAccount,
  type BuiltMember,
} from '../../test/factories.js';
import { linkExam, makeDesk, makeDevice, makeProcedure, register, type Desk } from '../../test/factories-registry.js';
import { makeQueueType } from '../../test/factories-calling.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * statistics/turnaround and turnaround/slowest (issue 26, beyond the spec): each step's time lands
 * in exam_steps where it happens (registration, arrival, the first stored image, first save, submit,
 * approval), through the desk's, the archive's and the reports' own calls; the median and 90th
 * percentile by modality, room, doctor and hour; the slowest exams; the exams past the group's
 * target; range rules and refusals.
 */
let t: TestApp;
let desk: Desk;
let other: Desk;
let admin: BuiltAccount;
let approver: BuiltMember;
let ct: string;
let mr: string;
let day: string;
const minute = 60_000;
const flows: { scheduledId: string; examId: string; registeredAt: Date }[] = [];
let pendingId = '';

const db = () => t.db.database.db;
const get = async (path: string, query: Record<string, string>, token = admin.token) =>
  t.as(token).get(`${path}?${new URLSearchParams(query).toString()}`);
const table = async (query: Record<string, string>) => {
  const res = await get('statistics/turnaround', { from: day, to: day, bucketIds: desk.org.bucketId, ...query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StatTable;
};
const stepsOf = async (scheduledId: string) =>
  (await db().select().from(examSteps).where(eq(examSteps.id, scheduledId)))[0];

/** Everyone signs in again (the clock moves past a token's life). */
async function refresh() {
  for (const who of [desk.registrar, desk.tech, desk.doctor, other.registrar, approver, admin]) {
    who.token = await signIn(t, who);
  }
}

/** A report's save, submit or approval through its routes. */
async function reportStep(examId: string, who: BuiltAccount, action: 'save' | 'submit' | 'approve', version = 0) {
  const token = await signIn(t, who);
  const content = { ...EMPTY_REPORT_CONTENT, findings: '所见。', conclusion: '结论' };
  const res = await t.as(token).post(`reports/${examId}/${action}`, action === 'approve' ? {} : { version, content });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { version: number }).version;
}

/**
 * Registered → arrived (+10) → images stored (+20, the first image: performed) → first save (+a)
 * → second save (+5) → submitted (+5) → approved (+b): registration to approval 40 + a + b minutes.
 */
async function flow(procedureId: string, a: number, b: number, deviceId?: string) {
  await refresh();
  const reg = await register(t, desk.registrar.token, desk.org.bucketId, [
    { procedureId, scheduledDate: hospitalDate(t.clock.now()), ...(deviceId ? { deviceId } : {}) },
  ]);
  const scheduledId = reg.exams[0]!.id;
  const registeredAt = t.clock.now();
  t.clock.advance(10 * minute);
  const arrived = await t.as(desk.tech.token).post('registry/arrive', { ids: [scheduledId] });
  expect(arrived.statusCode, arrived.body).toBe(200);
  t.clock.advance(20 * minute);
  const { examId } = await makeExam(t, desk.org.bucketId, {
    modality: procedureId === mr ? 'MR' : 'CT',
    patientName: 'WANG^XIAODONG',
  });
  await linkExam(t, scheduledId, examId);
  t.clock.advance(a * minute);
  let v = await reportStep(examId, desk.doctor, 'save');
  t.clock.advance(5 * minute);
  v = await reportStep(examId, desk.doctor, 'save', v);
  t.clock.advance(5 * minute);
  await reportStep(examId, desk.doctor, 'submit', v);
  t.clock.advance(b * minute);
  await reportStep(examId, approver, 'approve');
  flows.push({ scheduledId, examId, registeredAt });
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t);
  admin = await makeGroupMember(t, desk.org.groupId, 1);
  approver = await makeMember(t, desk.org.bucketId, { actions: demoRoles.approving.actions as never });
  ct = await makeProcedure(t, desk.org.bucketId, { modality: 'CT' });
  mr = await makeProcedure(t, desk.org.bucketId, { modality: 'MR' });
  const device = await makeDevice(t, desk.org.bucketId, { aeTitle: 'TAT_CT1', modality: 'CT' });
  await db().update(modalities).set({ room: '1号机房' }).where(eq(modalities.id, device));
  // 16:00 hospital time (08:00Z): three exams, 90, 50 and 60 minutes from registration to approval.
  day = hospitalDate(t.clock.now());
  await flow(ct, 20, 30, device); // 16:00 → 17:30, CT in room 1
  await flow(ct, 5, 5); // 17:30 → 18:20
  await flow(mr, 10, 10); // 18:20 → 19:20
  // 19:20: registered, never reported (past a 60-minute target by 20:50).
  await refresh();
  const pending = await register(t, desk.registrar.token, desk.org.bucketId, [{ procedureId: ct, scheduledDate: day }]);
  pendingId = pending.exams[0]!.id;
  t.clock.advance(90 * minute);
  await refresh();
  // The other organization's exam (another group) counts nowhere here.
  const foreign = await register(t, other.registrar.token, other.org.bucketId, [
    { modality: 'CT', scheduledDate: day },
  ]);
  expect(foreign.exams).toHaveLength(1);
});
afterAll(async () => {
  await t.close();
});

describe('turnaround steps', () => {
  it('records each step where it happens: registration, arrival, first image, first save, submit, approval', async () => {
    const first = flows[0]!;
    const row = await stepsOf(first.scheduledId);
    const at = (m: number) => new Date(first.registeredAt.getTime() + m * minute).toISOString();
    expect(row).toMatchObject({ examId: first.examId, bucketId: desk.org.bucketId, modality: 'CT', live: true });
    expect(row!.room).toBe('1号机房');
    expect(row!.doctorId).toBe(desk.doctor.accountId);
    expect(row!.registeredAt?.toISOString()).toBe(at(0));
    expect(row!.arrivedAt?.toISOString()).toBe(at(10));
    expect(row!.performedAt?.toISOString()).toBe(at(30));
    // the first save (50), not the last (55)
    expect(row!.firstSavedAt?.toISOString()).toBe(at(50));
    expect(row!.submittedAt?.toISOString()).toBe(at(60));
    expect(row!.approvedAt?.toISOString()).toBe(at(90));
    expect(row!.calledAt).toBeNull();
    // The exam linked to the scheduled exam has no row of its own.
    expect(await stepsOf(first.examId)).toBeUndefined();
  });

  it('takes the MPPS performed time over the first image, and a cancelled exam out', async () => {
    const second = flows[1]!;
    const mpps = new Date(second.registeredAt.getTime() + 25 * minute);
    await db().update(scheduledExams).set({ performedAt: mpps }).where(eq(scheduledExams.id, second.scheduledId));
    expect((await stepsOf(second.scheduledId))!.performedAt?.toISOString()).toBe(mpps.toISOString());
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ procedureId: ct, scheduledDate: day }]);
    const id = reg.exams[0]!.id;
    expect((await stepsOf(id))!.live).toBe(true);
    const res = await t.as(desk.registrar.token).post('registry/exam/status', { id, action: 'revoke', reason: '重复' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await stepsOf(id))!.live).toBe(false);
  });
});

describe('turnaround steps after the report', () => {
  it('records the call, the print, the remote read published and the first share view', async () => {
    const { scheduledId, examId } = flows[2]!;
    const at = (m: number) => new Date(t.clock.now().getTime() + m * minute);
    const queue = await makeQueueType(t, desk, { displayName: 'MR 队列', modality: 'MR', roomName: '3号机房' });
    await db().execute(sql`insert into queue_exams (id, bucket_id, queue_type_id, scheduled_exam_id, check_in_date,
      queue_no, status, room, called_at, called_count)
      values (${crypto.randomUUID()}, ${desk.org.bucketId}, ${queue.id}, ${scheduledId}, ${day}, 1, 'called',
        '3号机房', ${at(1).toISOString()}::timestamptz, 1)`);
    let row = await stepsOf(scheduledId);
    expect(row!.calledAt?.toISOString()).toBe(at(1).toISOString());
    expect(row!.room).toBe('3号机房'); // no device: the queue's room
    await db()
      .update(reports)
      .set({ printApprovedAt: at(2) })
      .where(eq(reports.id, examId));
    await db().execute(sql`insert into orders (id, order_no, type, group_id, request_bucket_id, target_bucket_id,
      exam_id, status, reported_at)
      values (${crypto.randomUUID()}, ${crypto.randomUUID()}, 'remote', ${desk.org.groupId}, ${desk.org.bucketId},
        ${other.org.bucketId}, ${examId}, 'reported', ${at(3).toISOString()}::timestamptz)`);
    const link = crypto.randomUUID();
    await db()
      .execute(sql`insert into report_share_links (id, token_hash, report_id, bucket_id, report_version, expires_at)
      values (${link}, ${link}, ${examId}, ${desk.org.bucketId}, 1, ${at(9999).toISOString()}::timestamptz)`);
    for (const m of [4, 5]) {
      await db().execute(sql`update report_share_links set last_viewed_at = ${at(m).toISOString()}::timestamptz,
        view_count = view_count + 1 where id = ${link}`);
    }
    row = await stepsOf(scheduledId);
    expect(row!.printedAt?.toISOString()).toBe(at(2).toISOString());
    expect(row!.publishedAt?.toISOString()).toBe(at(3).toISOString());
    expect(row!.shareViewedAt?.toISOString()).toBe(at(4).toISOString()); // the first view, not the last
  });
});

describe('statistics/turnaround', () => {
  it('registration to approval by modality: exams, median, p90, exact', async () => {
    const tb = await table({ by: 'modality' });
    expect(tb.kind).toBe('turnaround');
    expect(tb.columns).toEqual(['exams', 'medianMinutes', 'p90Minutes', 'overTarget']);
    expect(tb.rows.find((r) => r.key === 'CT')!.values).toEqual({
      exams: 2,
      medianMinutes: 70,
      p90Minutes: 86, // 50 + 0.9 × (90 − 50)
      overTarget: 0,
    });
    expect(tb.rows.find((r) => r.key === 'MR')!.values).toMatchObject({ exams: 1, medianMinutes: 60, p90Minutes: 60 });
    // 50, 60, 90: p90 = 60 + 0.8 × (90 − 60)
    expect(tb.totals).toEqual({ exams: 3, medianMinutes: 60, p90Minutes: 84, overTarget: 0 });
    expect(tb.periods).toEqual([{ period: day, values: tb.totals }]);
  });

  it('by hour of the earlier step (hospital time), by room and by doctor', async () => {
    const hours = await table({ by: 'hour' });
    expect(hours.rows.map((r) => [r.key, r.label, r.values.exams, r.values.medianMinutes])).toEqual([
      ['16', '16:00', 1, 90],
      ['17', '17:00', 1, 50],
      ['18', '18:00', 1, 60],
    ]);
    const rooms = await table({ by: 'room' });
    expect(rooms.rows.find((r) => r.key === '1号机房')!.values.exams).toBe(1);
    const doctors = await table({ by: 'doctor' });
    expect(doctors.rows).toHaveLength(1);
    expect(doctors.rows[0]!.key).toBe(desk.doctor.accountId);
    expect(doctors.rows[0]!.label).toBe(desk.doctor.name);
  });

  it('another interval: images to the first save, and a modality filter', async () => {
    const tb = await table({ fromStep: 'performed', toStep: 'firstSaved', modality: 'CT' });
    // CT 1: 20 minutes; CT 2: MPPS at +25, saved at +35: 10 minutes
    expect(tb.totals).toMatchObject({ exams: 2, medianMinutes: 15 });
  });

  it('counts past the group target once one is set (1..10080 minutes)', async () => {
    const bad = await t.as(admin.token).post(`groups/${desk.org.groupId}/update`, {
      settings: { turnaroundTargetMinutes: 10081 },
    });
    expect(bad.statusCode).toBe(400);
    const ok = await t.as(admin.token).post(`groups/${desk.org.groupId}/update`, {
      settings: { turnaroundTargetMinutes: 60 },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const tb = await table({ by: 'modality' });
    expect(tb.rows.find((r) => r.key === 'CT')!.values.overTarget).toBe(1);
    expect(tb.totals.overTarget).toBe(1);
  });
});

describe('statistics/turnaround/slowest', () => {
  it('lists the slowest exams with patient and accession, and those now past the target; audited', async () => {
    const res = await get('statistics/turnaround/slowest', { from: day, to: day, bucketIds: desk.org.bucketId });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as TurnaroundSlowest;
    expect(body.targetMinutes).toBe(60);
    expect(body.slowest.map((s) => s.minutes)).toEqual([90, 60, 50]);
    const top = body.slowest[0]!;
    // the stored study's name; an exam without images (overdue) has its registration's
    expect(top).toMatchObject({ examId: flows[0]!.examId, patientName: 'WANG^XIAODONG', modality: 'CT' });
    expect(top.room).toBe('1号机房');
    expect(top.accessionNumber).not.toBe('');
    expect(top.doctor).toBe(desk.doctor.name);
    expect(body.overdue.map((o) => o.examId)).toEqual([pendingId]);
    expect(body.overdue[0]).toMatchObject({ toAt: null, minutes: 90, patientName: '王^小东' });
    const audits = await db().execute(
      sql`select count(*)::int as n from audit_logs where action = 'statistics.turnaround.slowest' and bucket_id = ${desk.org.bucketId}`,
    );
    expect((audits as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  });

  it('another interval has no target: no overdue list', async () => {
    const res = await get('statistics/turnaround/slowest', {
      from: day,
      to: day,
      bucketIds: desk.org.bucketId,
      fromStep: 'arrived',
      toStep: 'submitted',
    });
    const body = res.json() as TurnaroundSlowest;
    expect(body).toMatchObject({ targetMinutes: null, overdue: [] });
    expect(body.slowest.map((s) => s.minutes)).toEqual([50, 40, 35]);
  });
});

describe('refusals and range rules', () => {
  it('403 without statistics_report, 404 for another group, 400 for steps out of order or a bad range', async () => {
    const workload = await makeMember(t, desk.org.bucketId, { actions: ['physician_workload_stats'] });
    const q = { from: day, to: day, bucketIds: desk.org.bucketId };
    expect((await get('statistics/turnaround', q, workload.token)).statusCode).toBe(403);
    expect((await get('statistics/turnaround/slowest', q, workload.token)).statusCode).toBe(403);
    expect((await get('statistics/turnaround', q, desk.doctor.token)).statusCode).toBe(403);
    const foreign = await get('statistics/turnaround', { ...q, bucketIds: other.org.bucketId });
    expect(foreign.statusCode).toBe(404);
    const order = await get('statistics/turnaround', { ...q, fromStep: 'approved', toStep: 'registered' });
    expect(order.statusCode).toBe(400);
    const backwards = await get('statistics/turnaround', { ...q, from: day, to: hospitalDate(t.clock.now(), -3) });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().code).toBe('StatisticsRangeInvalid');
    const long = await get('statistics/turnaround', { ...q, from: '2019-01-01', to: day });
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('StatisticsRangeTooLong');
  });

  it('the steps come from the triggers: without the reports trigger an approval is not recorded', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ procedureId: ct, scheduledDate: day }]);
    const { examId } = await makeExam(t, desk.org.bucketId, { modality: 'CT' });
    await linkExam(t, reg.exams[0]!.id, examId);
    await db().execute(sql`drop trigger reports_steps_update on reports`);
    const v = await reportStep(examId, desk.doctor, 'submit');
    expect(v).toBeGreaterThan(0);
    await reportStep(examId, approver, 'approve');
    // the report is approved, but without its trigger exam_steps never heard of it
    const report = await db().select().from(reports).where(eq(reports.id, examId));
    expect(report[0]!.approvedAt).not.toBeNull();
    const row = await stepsOf(reg.exams[0]!.id);
    expect(row!.examId).toBe(examId);
    expect(row!.submittedAt).toBeNull();
    expect(row!.approvedAt).toBeNull();
  });
});
