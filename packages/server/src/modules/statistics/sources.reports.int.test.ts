import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { StatTable } from '@yyp/contracts';
import { modalities, reports, scheduledExams } from '../../db/schema.js';
import { makeExam, makeMember, makeOrganization, makeReport, type BuiltMember } from '../../test/factories.js';
import { APPROVING } from '../../test/factories-reports.js';
import { linkExam, makeDesk, makeDevice, makeProcedure, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * The statistics counted from exams and reports through GET statistics/<kind> (issue 26), with
 * data built by the factories: exams through the ingest, reports through their action routes.
 */
let t: TestApp;
let desk: Desk;
let org: string;
let senior: BuiltMember;
let viewer: BuiltMember;
let otherOrg: string;
const ex = { ct1: '', ct2: '', mr: '' };
let deviceId = '';
const RANGE = 'from=2026-11-01&to=2026-11-30';

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  org = desk.org.bucketId;
  senior = await makeMember(t, org, { name: '李主任', actions: [...APPROVING] });
  viewer = await makeMember(t, org, {
    name: '王科长',
    actions: [
      'physician_workload_stats',
      'positive_rate_stats',
      'note_taker_stats',
      'org_workload_stats',
      'device_workload_stats',
    ],
  });
  otherOrg = (await makeOrganization(t)).bucketId;
  ex.ct1 = (await makeExam(t, org, { modality: 'CT', bodyPartExamined: 'CHEST' })).examId;
  ex.ct2 = (await makeExam(t, org, { modality: 'CT', bodyPartExamined: 'HEAD' })).examId;
  ex.mr = (await makeExam(t, org, { modality: 'MR', bodyPartExamined: 'HEAD' })).examId;
  const writer = desk.doctor.token;
  await makeReport(t, ex.ct1, {
    writer,
    approver: senior.token,
    state: 'approved',
    content: { positive: true, bodyPartCount: 2 },
  });
  await makeReport(t, ex.mr, { writer, approver: senior.token, state: 'approved', content: { positive: false } });
  await makeReport(t, ex.ct2, { writer, content: { positive: true } });
  // ct1 was scanned on a registered device (the scheduled exam bound to it names it)
  deviceId = await makeDevice(t, org, { aeTitle: 'CT_ONE', modality: 'CT', name: 'CT-1' });
  await t.db.database.db.update(modalities).set({ room: '1号机房' }).where(eq(modalities.id, deviceId));
  const procedureId = await makeProcedure(t, org, { modality: 'CT' });
  const reg = await register(t, desk.registrar.token, org, [{ procedureId, deviceId }]);
  const [scheduled] = await t.db.database.db
    .select({ id: scheduledExams.id })
    .from(scheduledExams)
    .where(eq(scheduledExams.registrationId, reg.id));
  await linkExam(t, scheduled!.id, ex.ct1);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function table(kind: string, query: string, token = viewer.token): Promise<StatTable> {
  const res = await t.as(token).get(`statistics/${kind}?${RANGE}&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StatTable;
}
const byKey = (tb: StatTable) => Object.fromEntries(tb.rows.map((r) => [r.key + (r.sub ? `/${r.sub}` : ''), r]));

describe('statistics from exams and reports', () => {
  it('report: written under the creator, approved under the approver, with body parts, labelled by name', async () => {
    const tb = await table('report', 'by=doctor');
    expect(tb.columns).toEqual(['written', 'approved', 'writtenBodyParts', 'approvedBodyParts']);
    const rows = byKey(tb);
    expect(rows[desk.doctor.accountId]).toMatchObject({
      label: desk.doctor.name,
      values: { written: 2, approved: 0, writtenBodyParts: 3, approvedBodyParts: 0 },
    });
    expect(rows[senior.accountId]).toMatchObject({
      label: '李主任',
      values: { written: 0, approved: 2, writtenBodyParts: 0, approvedBodyParts: 3 },
    });
    expect(tb.rows).toHaveLength(2);
    expect(tb.totals).toEqual({ written: 2, approved: 2, writtenBodyParts: 3, approvedBodyParts: 3 });
    // the approval day carries them (the test clock's 2026-11-22, a hospital day)
    const day = tb.periods.find((p) => p.period === '2026-11-22');
    expect(day?.values).toMatchObject({ written: 2, approved: 2 });
    expect(tb.periods.filter((p) => p.values.approved !== 0)).toHaveLength(1);
  });

  it('report: the detailed version has a row per doctor and modality; doctorId and modality filter', async () => {
    const detailed = byKey(await table('report', 'by=doctor&version=detailed'));
    expect(detailed[`${desk.doctor.accountId}/CT`]?.values).toMatchObject({ written: 1, writtenBodyParts: 2 });
    expect(detailed[`${desk.doctor.accountId}/MR`]?.values).toMatchObject({ written: 1, writtenBodyParts: 1 });
    expect(detailed[`${senior.accountId}/CT`]?.values).toMatchObject({ approved: 1 });
    const mine = byKey(await table('report', `by=modality&doctorId=${senior.accountId}`));
    expect(mine.CT?.values).toEqual({ written: 0, approved: 1, writtenBodyParts: 0, approvedBodyParts: 2 });
    const mr = await table('report', 'by=bucket&modality=MR');
    expect(mr.rows).toEqual([
      { key: org, label: '放射科', values: { written: 1, approved: 1, writtenBodyParts: 1, approvedBodyParts: 1 } },
    ]);
  });

  it('report-positive: approved reports with the flag set, by modality, body part, doctor', async () => {
    const tb = await table('report-positive', 'by=modality');
    expect(byKey(tb).CT?.values).toEqual({ reports: 1, positive: 1, negative: 0, positiveRate: 1 });
    expect(byKey(tb).MR?.values).toEqual({ reports: 1, positive: 0, negative: 1, positiveRate: 0 });
    expect(tb.totals).toEqual({ reports: 2, positive: 1, negative: 1, positiveRate: 0.5 });
    // a day without reports has no rate
    expect(tb.periods.find((p) => p.period === '2026-11-02')?.values.positiveRate).toBeNull();
    const parts = byKey(await table('report-positive', 'by=bodyPart'));
    expect(parts.CHEST?.values.positive).toBe(1);
    expect(parts.HEAD?.values.negative).toBe(1);
    const doctors = await table('report-positive', 'by=doctor');
    expect(doctors.rows.map((r) => r.key)).toEqual([desk.doctor.accountId]);
  });

  it('study: live exams received, their body parts, reports approved; modality: by device and room', async () => {
    const tb = await table('study', 'by=bucket');
    expect(tb.rows).toEqual([{ key: org, label: '放射科', values: { exams: 3, bodyParts: 4, reported: 2 } }]);
    expect(byKey(await table('study', 'by=modality')).CT?.values).toEqual({ exams: 2, bodyParts: 3, reported: 1 });
    const devices = byKey(await table('modality', 'by=device'));
    expect(devices[deviceId]).toMatchObject({ label: 'CT-1', values: { exams: 1, bodyParts: 2 } });
    expect(devices['']?.values).toEqual({ exams: 2, bodyParts: 2 });
    const rooms = byKey(await table('modality', 'by=room'));
    expect(rooms['1号机房']?.values).toEqual({ exams: 1, bodyParts: 2 });
    const ct = await table('modality', 'by=modality&modality=CT');
    expect(ct.rows.map((r) => [r.key, r.values.exams])).toEqual([['CT', 2]]);
    expect(ct.totals).toEqual({ exams: 2, bodyParts: 3 });
  });

  it('note-taker: approved reports a note-taker typed', async () => {
    await t.db.database.db.update(reports).set({ noteTakerId: viewer.accountId }).where(eq(reports.id, ex.mr));
    const tb = await table('note-taker', 'by=noteTaker');
    expect(tb.rows).toEqual([{ key: viewer.accountId, label: '王科长', values: { reports: 1, bodyParts: 1 } }]);
  });

  it('a recall leaves the counts', async () => {
    const recalled = await t.as(senior.token).post(`reports/${ex.ct1}/recall`, { reason: '补充既往史' });
    expect(recalled.statusCode, recalled.body).toBe(200);
    expect((await table('report', 'by=doctor')).totals).toEqual({
      written: 1,
      approved: 1,
      writtenBodyParts: 1,
      approvedBodyParts: 1,
    });
    expect((await table('report-positive', 'by=modality')).totals).toMatchObject({ reports: 1, positive: 0 });
  });

  it('is refused without the action, and for another organization', async () => {
    expect((await t.as(desk.doctor.token).get(`statistics/report?${RANGE}`)).statusCode).toBe(403);
    expect((await t.as(viewer.token).get(`statistics/study?${RANGE}&bucketIds=${otherOrg}`)).statusCode).toBe(404);
  });
});
