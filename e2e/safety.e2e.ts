import type { ExamPage } from '@yyp/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateStudy } from '../packages/server/src/dicom/testdata/generate.js';
import {
  api,
  apiLogin,
  launchBrowser,
  loginViaUi,
  openPage,
  screenshot,
  stowInstances,
  todayDicom,
  shotIfFailed,
} from './support.js';

/**
 * Clinical safety review screens (issue 8). A chest CT of 钱危急 arrives in 放射科; the doctor
 * writes it, the senior approves it and reports a critical value (through the API). The registry
 * desk, who takes the ordering department's read-back on the phone, opens /critical-values, sees
 * the value awaiting receipt (the patient named: the hospital keeps privacy off), records the read-back and then
 * closes it. The senior grades the report (through the API) and finds the grade on /quality.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let page: Page | undefined;
let examId = '';

const PATIENT_ID = `E2E-SAFE-${Date.now()}`;
const CRITICAL_TEXT = '右侧张力性气胸，纵隔左移';

/** One small generated chest CT sent by STOW-RS into 放射科. */
async function storeStudy(token: string, bucketId: string): Promise<void> {
  const study = generateStudy({
    patientId: PATIENT_ID,
    // Not 赵 or 张: the study list e2e finds 张伟 by the initials zw, which 赵危急 would share.
    patientName: '钱^危急',
    charset: 'ISO_IR 192',
    patientSex: 'M',
    studyDate: todayDicom(),
    modality: 'CT',
    bodyPartExamined: 'CHEST',
    instancesPerSeries: 1,
    rows: 32,
    columns: 32,
  });
  await stowInstances(
    token,
    bucketId,
    study.instances.map((i) => i.bytes),
  );
}

async function signedIn(username: string): Promise<Page> {
  const { context, page: p } = await openPage(browser);
  contexts.push(context);
  await loginViaUi(p, username);
  return p;
}

beforeAll(async () => {
  browser = await launchBrowser();
  const tech = (await apiLogin('tech')).accessToken;
  const doctor = (await apiLogin('doctor')).accessToken;
  const senior = (await apiLogin('senior')).accessToken;
  const uploadable = await api<{ id: string; name: string }[]>('/yyp/api/v1/buckets/uploadable', tech);
  await storeStudy(tech, uploadable.body.find((b) => b.name === '放射科')!.id);
  const found = await api<ExamPage>('/yyp/api/v1/exams/page-query', senior, {
    method: 'POST',
    body: JSON.stringify({ filters: [{ field: 'patientId', operator: 'eq', values: [PATIENT_ID] }] }),
  });
  expect(found.body.exams).toHaveLength(1);
  examId = found.body.exams[0]!.id;
  const report = `/yyp/api/v1/reports/${examId}`;
  const submitted = await api(`${report}/submit`, doctor, {
    method: 'POST',
    body: JSON.stringify({
      version: 0,
      content: {
        findings: '右侧胸腔见大量气体密度影，右肺压缩约70%，纵隔向左移位。',
        conclusion: '右侧张力性气胸。',
        positive: true,
        note: '',
        bodyPartCount: 1,
        advice: '',
        extensions: {},
      },
    }),
  });
  expect(submitted.status).toBe(200);
  expect((await api(`${report}/approve`, senior, { method: 'POST', body: '{}' })).status).toBe(200);
  const critical = await api(`${report}/critical-value`, senior, {
    method: 'POST',
    body: JSON.stringify({ text: CRITICAL_TEXT, level: '高' }),
  });
  expect(critical.status).toBe(201);
});

afterAll(async () => {
  for (const context of contexts) {
    await context.close().catch(() => undefined);
  }
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, page);
});

describe('clinical safety review', () => {
  it('the registry desk records the read-back of a critical value and closes it from /critical-values', async () => {
    page = await signedIn('registrar');
    await page.getByRole('menuitem', { name: '危急值' }).click();
    await page.waitForURL('**/critical-values');
    const row = page.getByRole('row').filter({ hasText: CRITICAL_TEXT });
    await row.waitFor();
    // Awaiting receipt; the hospital keeps privacy off, so the desk sees the name (issue 20 item 1).
    await row.getByText('待接收').waitFor();
    await row.getByText('钱危急').waitFor();
    await row.getByText('王主任').waitFor();
    await page!.getByTestId('critical-stats').getByText('待接收').waitFor();

    await row.getByRole('button', { name: '登记接收' }).click();
    const receive = page.getByRole('dialog', { name: '登记临床科室的接收与复述' });
    await receive.getByLabel('接收人').fill('急诊科 张护士');
    await receive.getByLabel('复述确认人').fill('刘建国');
    await receive.getByLabel('复述内容').fill('右侧张力性气胸，已复述无误');
    await receive.getByRole('button', { name: '登记接收' }).click();
    await receive.waitFor({ state: 'hidden' });
    await row.getByText('已接收').waitFor();
    await row.getByText('急诊科 张护士').waitFor();

    await row.getByRole('button', { name: '标记已处理' }).click();
    const handle = page.getByRole('dialog', { name: '处理危急值' });
    await handle.getByLabel('处理意见').fill('已通知急诊科行胸腔闭式引流');
    await handle.getByRole('button', { name: '标记已处理' }).click();
    await handle.waitFor({ state: 'hidden' });
    await row.getByText('已处理').waitFor();
    await row.getByText('赵登记').waitFor();
    await expect.poll(() => row.getByRole('button').count(), { timeout: 10_000 }).toBe(0);
    await page.mouse.move(0, 0);
    await screenshot(page, 'critical-values-list');

    // The server agrees: the value is handled and the exam's critical flag is down.
    const token = (await apiLogin('senior')).accessToken;
    const list = await api<{ items: { status: string; receiver: string }[] }>(
      `/yyp/api/v1/reports/${examId}/critical-values`,
      token,
    );
    expect(list.body.items).toEqual([expect.objectContaining({ status: 'handled', receiver: '急诊科 张护士' })]);
  });

  it('the senior finds a quality grade on /quality and opens its report', async () => {
    const senior = (await apiLogin('senior')).accessToken;
    const graded = await api(`/yyp/api/v1/reports/${examId}/quality`, senior, {
      method: 'POST',
      body: JSON.stringify({
        level: 'C',
        suggestion: '结论应写明肺压缩程度及复查建议',
        unsatisfactoryItems: ['结论不完整', '未写建议'],
      }),
    });
    expect(graded.status).toBe(200);

    page = await signedIn('senior');
    await page.getByRole('menuitem', { name: '报告质控' }).click();
    await page.waitForURL('**/quality');
    const organization = page.getByRole('combobox', { name: '机构' });
    await organization.click();
    await page.locator('.ant-select-item-option[title="放射科"]').click();
    const row = page.getByRole('row').filter({ hasText: '结论应写明肺压缩程度及复查建议' });
    await row.waitFor();
    await row.getByText('丙级').waitFor();
    await row.getByText('钱危急').waitFor();
    await row.getByText('未写建议').waitFor();
    await row.getByText('王主任').waitFor();
    await page.mouse.move(0, 0);
    await screenshot(page, 'quality-review-list');

    await row.getByText('结论不完整').click();
    await page.waitForURL(`**/studies/${examId}/reports/${examId}`);
  });
});
