import type { ExamDetail, ExamPage, ReportTableColor, WorklistItem } from '@yyp/contracts';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { exams, reportTableColors } from '../../db/schema.js';
import { as, content, groups, newExam, ok, t, useReportsFixture } from '../reports/reports.fixture.js';

useReportsFixture();

const GREEN = { color: '#ffffff', background: '#389e0d' };
const RED = { color: '#ffffff', background: '#cf1322' };
const ORANGE = { color: '#000000', background: '#fa8c16' };

async function addColour(who: string, groupId: string, body: Record<string, unknown>): Promise<ReportTableColor> {
  const res = await as(who).post(`report-table-color?groupId=${groupId}`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ReportTableColor;
}

async function approve(id: string, positive: boolean | null): Promise<void> {
  const submitted = await ok('doctor', id, 'submit', { version: 0, content: content('所见', '结论', { positive }) });
  await ok('senior', id, 'approve', { version: submitted.version, content: submitted.content });
}

async function listed(who: string, ids: string[]): Promise<Map<string, ExamPage['exams'][number]>> {
  const res = await as(who).post('exams/page-query', { limit: 200 });
  expect(res.statusCode, res.body).toBe(200);
  return new Map((res.json() as ExamPage).exams.filter((e) => ids.includes(e.id)).map((e) => [e.id, e]));
}

afterAll(async () => {
  await t.db.database.db
    .delete(reportTableColors)
    .where(inArray(reportTableColors.groupId, [groups.hospital, groups.tele]));
});

describe('report table colours in the lists', () => {
  it('refuses a value that does not fit the field, and writes nothing', async () => {
    const base = { name: '坏值', color: '#ffffff', background: '#cf1322', priority: 0 };
    for (const bad of [
      { ...base, field: 'status', value: 'approved' },
      { ...base, field: 'status', value: '' },
      { ...base, field: 'critical', value: 'yes' },
      { ...base, field: 'positive', value: '' },
      { ...base, field: 'urgent', value: '1' },
    ]) {
      const res = await as('groupadmin').post(`report-table-color?groupId=${groups.hospital}`, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'ValidationError',
        details: { issues: [expect.objectContaining({ path: 'body.value' })] },
      });
    }
    const rows = await t.db.database.db.select().from(reportTableColors).where(eq(reportTableColors.name, '坏值'));
    expect(rows).toEqual([]);
  });

  it('paint the report status of the study list, the exam and the worklist by the first matching colour', async () => {
    const approvedNegative = await newExam();
    const approvedPositive = await newExam();
    const urgentUnwritten = await newExam();
    const plain = await newExam();
    await approve(approvedNegative, false);
    await approve(approvedPositive, true);
    await t.db.database.db.update(exams).set({ urgentFlag: true }).where(eq(exams.id, urgentUnwritten));
    const ids = [approvedNegative, approvedPositive, urgentUnwritten, plain];

    // Nothing configured: nothing painted.
    for (const e of (await listed('senior', ids)).values()) expect(e.reportColor).toBeNull();

    await addColour('groupadmin', groups.hospital, {
      name: '已审核',
      field: 'status',
      value: 'corrected',
      ...GREEN,
      priority: 5,
    });
    await addColour('groupadmin', groups.hospital, {
      name: '阳性',
      field: 'positive',
      value: 'true',
      ...RED,
      priority: 1,
    });
    const urgent = await addColour('groupadmin', groups.hospital, {
      name: '急诊',
      field: 'urgent',
      value: 'true',
      ...ORANGE,
      priority: 3,
    });
    // Another group's colour never paints this group's exams.
    await addColour('teleadmin', groups.tele, { name: '未写', field: 'status', value: 'none', ...RED, priority: 0 });

    const page = await listed('senior', ids);
    expect(page.get(approvedNegative)!.reportColor).toEqual(GREEN);
    // positive (priority 1) comes before the status (priority 5)
    expect(page.get(approvedPositive)!.reportColor).toEqual(RED);
    expect(page.get(urgentUnwritten)!.reportColor).toEqual(ORANGE);
    expect(page.get(plain)!.reportColor).toBeNull();
    // the colour rules' row colour is a separate thing
    expect(page.get(approvedNegative)!.rowColor).toBeNull();

    const one = await as('senior').get(`exams/${approvedPositive}`);
    expect(one.statusCode, one.body).toBe(200);
    expect((one.json() as ExamDetail).reportColor).toEqual(RED);

    const work = await as('doctor').get(`reports/${approvedNegative}/worklist`);
    expect(work.statusCode, work.body).toBe(200);
    const items = new Map((work.json() as { items: WorklistItem[] }).items.map((i) => [i.examId, i]));
    expect(items.get(urgentUnwritten)?.reportColor).toEqual(ORANGE);
    const others = [...items.values()].filter((i) => i.examId !== urgentUnwritten);
    expect(others.length).toBeGreaterThan(0);
    for (const i of others) expect(i.reportColor).toBeNull();

    // A changed colour shows at once; a deleted one no longer paints.
    const moved = await as('groupadmin').put(`report-table-color/${urgent.id}`, {
      name: '急诊',
      field: 'urgent',
      value: 'false',
      ...ORANGE,
      priority: 3,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await listed('senior', ids);
    expect(after.get(urgentUnwritten)!.reportColor).toBeNull();
    expect(after.get(plain)!.reportColor).toEqual(ORANGE);
    expect((await as('groupadmin').del(`report-table-color/${urgent.id}`)).statusCode).toBe(204);
    expect((await listed('senior', ids)).get(plain)!.reportColor).toBeNull();
  });

  it("paints another group's exams with that group's colours only", async () => {
    const teleExam = await newExam(groups.teleOrg);
    const page = await listed('teledoctor', [teleExam]);
    expect(page.get(teleExam)?.reportColor).toEqual(RED);
    // and the renhe list shows none of the tele colours (its unwritten exams stay unpainted)
    const renhe = await as('senior').post('exams/page-query', { limit: 200 });
    const unwritten = (renhe.json() as ExamPage).exams.filter((e) => e.reportStatus === 'none' && !e.urgentFlag);
    expect(unwritten.length).toBeGreaterThan(0);
    for (const e of unwritten) expect(e.reportColor).toBeNull();
  });
});
