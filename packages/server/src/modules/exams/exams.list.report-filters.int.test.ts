import type { ExamPage } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExam, makeReport, signIn } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { makeStatWorld, type StatWorld } from '../statistics/statistics-detail.fixture.js';

/**
 * The study list's report filters (issue 26: a statistic's drill-down lands on /studies with
 * them): the writer, the approver, the approval time (hospital days or instants; approved reports
 * only, as the statistics count them) and the positive flag, each alone and together with the
 * organizations, on the page and on exams/query/count, scoped as the list is; bad values are 400.
 * The world: statistics-detail.fixture.ts (r1, r2, u1 approved on hospital day 2026-11-22, r3 on
 * the 23rd, r4 only submitted), and r5 approved at 2026-11-23T17:00Z, hospital day the 24th.
 */
let t: TestApp;
let w: StatWorld;
let r5 = '';

const f = (field: string, operator: string, values: unknown[]) => ({ field, operator, values });

async function ids(filters: unknown[], token = w.writer.token): Promise<string[]> {
  const res = await t.as(token).post('exams/page-query', { filters });
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json() as ExamPage;
  const counted = await t.as(token).post('exams/query/count', { filters });
  expect(counted.statusCode, counted.body).toBe(200);
  expect((counted.json() as { count: number }).count).toBe(page.count);
  expect(page.count).toBe(page.exams.length);
  return page.exams.map((e) => e.id).sort();
}
const set = (...names: (keyof StatWorld['exams'] | 'r5')[]) => names.map((n) => (n === 'r5' ? r5 : w.exams[n])).sort();

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeStatWorld(t);
  t.clock.advance(Date.parse('2026-11-23T17:00:00Z') - t.clock.now().getTime());
  for (const a of [w.writer, w.approver, w.admin, w.otherAdmin]) a.token = await signIn(t, a);
  r5 = (await makeExam(t, w.radiology, { modality: 'MR', patientName: 'Sun^Ba' })).examId;
  await makeReport(t, r5, {
    writer: w.writer.token,
    approver: w.approver.token,
    state: 'approved',
    content: { positive: false },
  });
});
afterAll(async () => {
  await t.close();
});

describe('the study list filters on the report', () => {
  it('reportWriterId: the exams whose report the account wrote (eq, in), approved or not', async () => {
    expect(await ids([f('reportWriterId', 'eq', [w.writer.accountId])])).toEqual(
      set('r1', 'r2', 'r3', 'r4', 'u1', 'r5'),
    );
    expect(await ids([f('reportWriterId', 'in', [w.approver.accountId, w.writer.accountId])])).toHaveLength(6);
    expect(await ids([f('reportWriterId', 'eq', [w.approver.accountId])])).toEqual([]);
  });

  it('reportApproverId: the exams whose report the account approved', async () => {
    expect(await ids([f('reportApproverId', 'eq', [w.approver.accountId])])).toEqual(set('r1', 'r2', 'r3', 'u1', 'r5'));
    expect(await ids([f('reportApproverId', 'in', [w.writer.accountId])])).toEqual([]);
  });

  it('reportApproved: approved reports by hospital day (UTC+8), a to day included, or by instants', async () => {
    expect(await ids([f('reportApproved', 'range', ['2026-11-22', '2026-11-22'])])).toEqual(set('r1', 'r2', 'u1'));
    // r5 was approved on the UTC day 2026-11-23, but the hospital's 24th.
    expect(await ids([f('reportApproved', 'range', ['2026-11-23', '2026-11-23'])])).toEqual(set('r3'));
    expect(await ids([f('reportApproved', 'range', ['20261124', ''])])).toEqual(set('r5'));
    expect(await ids([f('reportApproved', 'range', ['', '2026-11-23'])])).toEqual(set('r1', 'r2', 'r3', 'u1'));
    expect(await ids([f('reportApproved', 'range', ['2026-11-23T16:59:00Z', ''])])).toEqual(set('r5'));
    expect(await ids([f('reportApproved', 'range', ['2026-11-01', '2026-11-30'])])).not.toContain(w.exams.r4);
  });

  it('reportPositive: the report content flag (a report without it matches neither)', async () => {
    expect(await ids([f('reportPositive', 'eq', ['true'])])).toEqual(set('r1'));
    expect(await ids([f('reportPositive', 'eq', [false])])).toEqual(set('r2', 'r5'));
  });

  it("a statistic's drill: writer, approval days and organizations together, as the workload counts them", async () => {
    const drill = [
      f('reportWriterId', 'eq', [w.writer.accountId]),
      f('reportApproved', 'range', ['2026-11-01', '2026-11-23']),
      f('bucketId', 'in', [w.radiology]),
    ];
    expect(await ids(drill)).toEqual(set('r1', 'r2', 'r3'));
    expect(await ids([...drill, f('modality', 'eq', ['CT']), f('reportPositive', 'eq', ['true'])])).toEqual(set('r1'));
    const detail = await t
      .as(w.admin.token)
      .get(
        `statistics/report-detail?from=2026-11-01&to=2026-11-23&doctorId=${w.writer.accountId}&role=written&bucketIds=${w.radiology}`,
      );
    expect(detail.statusCode, detail.body).toBe(200);
    expect((detail.json() as { total: number }).total).toBe(3);
  });

  it("is scoped as the list is: another group's caller finds none of these exams", async () => {
    expect(await ids([f('reportWriterId', 'eq', [w.writer.accountId])], w.otherAdmin.token)).toEqual([]);
  });

  it('refuses a bad value or operator with 400', async () => {
    for (const bad of [
      f('reportWriterId', 'contains', ['x']),
      f('reportWriterId', 'eq', ['']),
      f('reportApproverId', 'range', ['a', 'b']),
      f('reportApproved', 'range', ['last month', '']),
      f('reportApproved', 'range', ['2026-02-30', '']),
      f('reportApproved', 'eq', ['2026-11-22']),
      f('reportApproved', 'range', ['', '']),
      f('reportPositive', 'eq', ['yes']),
      f('reportPositive', 'in', ['true', 'false']),
    ]) {
      const res = await t.as(w.writer.token).post('exams/page-query', { filters: [bad] });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      const counted = await t.as(w.writer.token).post('exams/query/count', { filters: [bad] });
      expect(counted.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });
});
