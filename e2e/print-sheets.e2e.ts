import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StudyOptions } from '../packages/server/src/dicom/testdata/generate.js';
import { api, apiLogin, launchBrowser, loginViaUi, openPage, screenshot, stowStudy, shotIfFailed } from './support.js';

/**
 * Printing sheets (issue 8): three patients' CTs in 放射科, two of 2025-03-10 and one of
 * 2025-03-11, each with an approved report; the first carries a liver diagram with two marks
 * placed to print. The senior ticks the two of one day in the study list and prints their reports
 * as one document of two pages, both prints recorded; ticking the third as well is refused with
 * the exams named under their days.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let senior: Page | undefined;
let bucketId = '';
const ids: Record<string, string> = {};

const PATIENTS = [
  { key: 'a', patientId: 'E2E-SHEETS-1', patientName: '赵一', studyDate: '20250310', studyTime: '080000' },
  { key: 'b', patientId: 'E2E-SHEETS-2', patientName: '钱二', studyDate: '20250310', studyTime: '093000' },
  { key: 'c', patientId: 'E2E-SHEETS-3', patientName: '孙三', studyDate: '20250311', studyTime: '101500' },
] as const;

const storeStudy = (token: string, options: StudyOptions) => stowStudy(token, bucketId, options);

/** A liver diagram as PNG, drawn in the browser. */
async function liverDiagram(): Promise<Buffer> {
  const { context, page } = await openPage(browser);
  await page.setContent(`<body style="margin:0;background:#fff">
    <svg id="figure" xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">
      <rect width="400" height="300" fill="#fff"/>
      <path d="M40 120 q40 -80 180 -70 q130 10 150 60 q-20 80 -160 110 q-140 20 -170 -100 z"
        fill="#f3d9d2" stroke="#8c4a3c" stroke-width="4"/>
      <path d="M200 52 L185 255 M120 90 L150 230" fill="none" stroke="#8c4a3c" stroke-width="2" stroke-dasharray="6 5"/>
    </svg></body>`);
  const png = await page.locator('#figure').screenshot();
  await context.close();
  return png;
}

const report = (id: string) => `/yyp/api/v1/reports/${id}`;

beforeAll(async () => {
  browser = await launchBrowser();
  const tech = (await apiLogin('tech')).accessToken;
  const doctor = (await apiLogin('doctor')).accessToken;
  const seniorToken = (await apiLogin('senior')).accessToken;
  const admin = (await apiLogin('groupadmin')).accessToken;
  bucketId = (await api<{ id: string }[]>('/yyp/api/v1/buckets/uploadable', tech)).body[0]!.id;
  for (const p of PATIENTS) {
    await storeStudy(tech, {
      patientId: p.patientId,
      patientName: p.patientName,
      charset: 'ISO_IR 192',
      patientSex: 'M',
      studyDate: p.studyDate,
      studyTime: p.studyTime,
      modality: 'CT',
      bodyPartExamined: 'ABDOMEN',
      instancesPerSeries: 1,
      rows: 64,
      columns: 64,
    });
    const found = await api<{ exams: { id: string }[] }>('/yyp/api/v1/exams/page-query', seniorToken, {
      method: 'POST',
      body: JSON.stringify({ filters: [{ field: 'patientId', operator: 'eq', values: [p.patientId] }] }),
    });
    expect(found.body.exams).toHaveLength(1);
    ids[p.key] = found.body.exams[0]!.id;
  }
  // The organization prints with a template (another spec may have set it already).
  const template = await api<{ template: { isDefault: boolean } }>(
    `/yyp/api/v1/buckets/${bucketId}/print-template`,
    admin,
  );
  if (template.body.template.isDefault) {
    const set = await api(`/yyp/api/v1/buckets/${bucketId}/print-template`, admin, {
      method: 'PUT',
      body: JSON.stringify({ hospitalName: '仁和医院', title: 'CT检查报告单', footerHtml: '本报告仅供临床参考' }),
    });
    expect(set.status).toBe(200);
  }
  // The technician adds the liver diagram; the doctor places it on the first report with two marks.
  const graph = await api<{ id: string }>(
    `/yyp/api/v1/sample-graphs/new?bucketId=${bucketId}&title=${encodeURIComponent('肝脏分段示意图')}`,
    tech,
    { method: 'POST', body: (await liverDiagram()) as unknown as BodyInit, headers: { 'content-type': 'image/png' } },
  );
  expect(graph.status).toBe(201);
  const placed = await api(`${report(ids.a!)}/sample-graphs`, doctor, {
    method: 'POST',
    body: JSON.stringify({
      sampleGraphId: graph.body.id,
      points: [
        { x: 130, y: 120, color: '#f5222d', label: '1' },
        { x: 280, y: 150, color: '#1677ff', label: '2' },
      ],
      isPrinted: true,
    }),
  });
  expect(placed.status).toBe(200);
  for (const p of PATIENTS) {
    const submitted = await api(`${report(ids[p.key]!)}/submit`, doctor, {
      method: 'POST',
      body: JSON.stringify({
        version: 0,
        content: {
          findings: `${p.patientName}：肝脏形态大小正常，实质密度均匀，未见异常密度影。`,
          conclusion: '上腹部CT平扫未见明显异常。',
          positive: false,
          note: '',
          bodyPartCount: 1,
          advice: '',
          extensions: {},
        },
      }),
    });
    expect(submitted.status).toBe(200);
    const approved = await api(`${report(ids[p.key]!)}/approve`, seniorToken, { method: 'POST', body: '{}' });
    expect(approved.status).toBe(200);
  }
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, senior, 'senior');
});

const rowOf = (p: Page, name: string) => p.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: name });

/** The study list narrowed to this spec's three patients, with the given ones ticked. */
async function tick(p: Page, names: string[]): Promise<void> {
  await p.goto('/studies');
  await p.getByRole('tab', { name: '全部检查' }).click();
  await p.getByLabel('姓名、拼音首字母、患者编号或检查号（/）').fill('e2e-sheets');
  await expect.poll(() => p.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 15_000 }).toBe(3);
  for (const name of names) await rowOf(p, name).locator('.ant-checkbox-input').check();
  await expect.poll(() => p.getByTestId('print-reports-selected').textContent()).toContain(String(names.length));
}

describe('printing sheets', () => {
  it('prints two approved reports of the same day, ticked in the study list, as one document of two pages', async () => {
    const opened = await openPage(browser);
    contexts.push(opened.context);
    senior = opened.page;
    await senior.addInitScript(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await loginViaUi(senior, 'senior');
    await tick(senior, ['赵一', '钱二']);
    await screenshot(senior, 'print-sheets-selected');
    await senior.getByTestId('print-reports').click();
    await senior.waitForURL('**/studies/print-sheets?examIds=*');
    const sheets = senior.locator('.yyp-print-sheet');
    await expect.poll(() => sheets.count()).toBe(2);
    expect(await sheets.nth(0).textContent()).toContain('赵一');
    expect(await sheets.nth(1).textContent()).toContain('钱二');
    expect(await senior.getByTestId('print-sheets-count').textContent()).toContain('2');

    // The first report's liver diagram prints under it with its two numbered marks.
    const graph = sheets.nth(0).getByTestId('print-sample-graph');
    await graph.waitFor();
    expect(await graph.getByTestId('print-sample-mark').count()).toBe(2);
    expect(await sheets.nth(1).getByTestId('print-sample-graph').count()).toBe(0);
    await expect
      .poll(() => graph.locator('img').evaluate((el) => (el as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await screenshot(senior, 'print-sheets', { fullPage: true });

    // On paper each report takes its own page.
    const pdf = await senior.pdf({ format: 'A4', printBackground: true });
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length).toBe(2);

    // Printing records the print of both reports.
    await senior.getByTestId('print-button').click();
    await expect.poll(() => senior!.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    const token = (await apiLogin('senior')).accessToken;
    for (const key of ['a', 'b']) {
      await expect
        .poll(async () => (await api<{ status: string }>(`${report(ids[key]!)}/detail`, token)).body.status)
        .toBe('printed');
    }
    expect((await api<{ status: string }>(`${report(ids.c!)}/detail`, token)).body.status).toBe('corrected');
  });

  it('refuses exams of different days and says which exam is on which day', async () => {
    await tick(senior!, ['赵一', '钱二', '孙三']);
    await senior!.getByTestId('print-reports').click();
    await senior!.waitForURL('**/studies/print-sheets?examIds=*');
    const refused = senior!.getByTestId('print-sheets-refused');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('所选检查不是同一天的');
    const groups = refused.getByTestId('print-sheets-group');
    // The exams are named once their details arrive.
    await expect.poll(() => groups.nth(0).textContent()).toContain('赵一');
    await expect.poll(() => groups.nth(1).textContent()).toContain('孙三');
    expect(await groups.count()).toBe(2);
    const first = await groups.nth(0).textContent();
    const second = await groups.nth(1).textContent();
    expect(first).toContain('2025-03-10');
    expect(first).toContain('钱二');
    expect(second).toContain('2025-03-11');
    expect(second).toContain('孙三');
    expect(await senior!.locator('.yyp-print-sheet').count()).toBe(0);
    await screenshot(senior!, 'print-sheets-refused');
  });
});
