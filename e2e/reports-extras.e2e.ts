import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  chooseLanguage,
  launchBrowser,
  loginViaUi,
  openPage,
  screenshot,
  stowStudy,
  todayDicom,
  shotIfFailed,
} from './support.js';

/**
 * The report editor's extras (issue 7): a patient with two CTs today in 放射科; the doctor who opens
 * the first is offered to write the second in the same report and does so. The technician, who
 * manages the organization's sample graphs, uploads a body diagram from the editor; the doctor
 * places it on the report and marks two points. Then the doctor saves the text as a personal
 * template, finds it in the library, renames it and deletes it.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let doctor: Page | undefined;
let tech: Page | undefined;
let examId = '';
let abdomenId = '';

const PATIENT_ID = 'E2E-EXTRA-1';
const editorUrl = () => `/studies/${examId}/reports/${examId}`;
const findings = (p: Page) => p.getByLabel('影像所见', { exact: true });
const conclusion = (p: Page) => p.getByLabel('诊断意见', { exact: true });

/** A PNG body diagram (outline of a person), drawn in the browser. */
async function bodyDiagram(): Promise<Buffer> {
  const { context, page } = await openPage(browser);
  await page.setContent(`<body style="margin:0;background:#fff">
    <svg id="figure" xmlns="http://www.w3.org/2000/svg" width="300" height="400" viewBox="0 0 300 400">
      <rect width="300" height="400" fill="#fff"/>
      <g fill="none" stroke="#555" stroke-width="3" stroke-linejoin="round">
        <circle cx="150" cy="48" r="30"/>
        <path d="M150 78 v14 M105 100 q45 -14 90 0 l10 120 h-20 l-6 -80 v100 l8 150 h-30 l-7 -130 l-7 130 h-30 l8 -150 v-100 l-6 80 h-20 z"/>
      </g>
    </svg></body>`);
  const png = await page.locator('#figure').screenshot();
  await context.close();
  return png;
}

async function signedIn(username: string): Promise<Page> {
  const { context, page } = await openPage(browser);
  contexts.push(context);
  await loginViaUi(page, username);
  return page;
}

async function waitWritable(p: Page): Promise<void> {
  // The editor takes the report's lock first; on a loaded 2-core machine that may take a while.
  await expect
    .poll(() => findings(p).evaluate((el) => (el as HTMLTextAreaElement).readOnly), { timeout: 20_000 })
    .toBe(false);
}

beforeAll(async () => {
  browser = await launchBrowser();
  const techToken = (await apiLogin('tech')).accessToken;
  const uploadable = await api<{ id: string }[]>('/yyp/api/v1/buckets/uploadable', techToken);
  const bucketId = uploadable.body[0]!.id;
  const patient = {
    patientId: PATIENT_ID,
    patientName: '周敏',
    charset: 'ISO_IR 192',
    patientSex: 'F',
    studyDate: todayDicom(),
    instancesPerSeries: 1,
    rows: 64,
    columns: 64,
  } as const;
  await stowStudy(techToken, bucketId, { ...patient, modality: 'CT', bodyPartExamined: 'CHEST', studyTime: '090000' });
  await stowStudy(techToken, bucketId, {
    ...patient,
    modality: 'CT',
    bodyPartExamined: 'ABDOMEN',
    studyTime: '091500',
  });
  const senior = (await apiLogin('senior')).accessToken;
  const found = await api<{ exams: { id: string; bodyPart: string }[] }>('/yyp/api/v1/exams/page-query', senior, {
    method: 'POST',
    body: JSON.stringify({ filters: [{ field: 'patientId', operator: 'eq', values: [PATIENT_ID] }] }),
  });
  expect(found.body.exams).toHaveLength(2);
  examId = found.body.exams.find((e) => e.bodyPart === 'CHEST')!.id;
  abdomenId = found.body.exams.find((e) => e.bodyPart === 'ABDOMEN')!.id;
});

afterAll(async () => {
  for (const context of contexts) {
    await context.close().catch(() => undefined);
  }
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, doctor, 'doctor');
  await shotIfFailed(task, tech, 'tech');
});

describe('report editor extras', () => {
  it('writes the day’s second exam in the same report, and marks two points on an uploaded sample graph', async () => {
    // The technician (manage_sample_graph, no report writing) uploads a diagram from the editor.
    tech = await signedIn('tech');
    await tech.goto(editorUrl());
    await tech.getByRole('tab', { name: /关键图像/ }).click();
    await tech.getByRole('button', { name: '上传示意图' }).click();
    const upload = tech.getByRole('dialog', { name: '上传示意图' });
    await upload.getByTestId('sample-graph-file').setInputFiles({
      name: '人体正面.png',
      mimeType: 'image/png',
      buffer: await bodyDiagram(),
    });
    await expect.poll(() => upload.getByLabel('标题').inputValue()).toBe('人体正面');
    await upload.getByLabel('标题').fill('人体正面示意图');
    await screenshot(tech, 'report-sample-graph-upload');
    await upload.getByRole('button', { name: /上\s?传示意图/ }).click();
    await tech.getByText('已上传示意图"人体正面示意图"').waitFor();
    await upload.waitFor({ state: 'hidden' });

    // The doctor opens the chest CT: the abdomen CT of the same day is offered.
    doctor = await signedIn('doctor');
    await doctor.goto(editorUrl());
    await waitWritable(doctor);
    const notice = doctor.getByTestId('combine-notice');
    await expect.poll(() => notice.textContent()).toContain('该患者今日还有 1 个检查未写报告：CT ABDOMEN');
    await screenshot(doctor, 'report-combine-offer');
    await notice.getByRole('button', { name: '合并书写' }).click();
    const confirm = doctor.getByRole('dialog');
    await confirm.getByText(/无法撤销/).waitFor();
    await confirm.getByRole('button', { name: '合并书写' }).click();
    await doctor.getByTestId('co-written').waitFor();
    expect(await doctor.getByTestId('co-written').textContent()).toBe('合并书写（另 1 个检查）');
    await notice.waitFor({ state: 'detached' });
    await expect.poll(() => doctor!.getByTestId('co-exams').textContent()).toContain('CT ABDOMEN');
    const token = (await apiLogin('doctor')).accessToken;
    const report = await api<{ examIds: string[] }>(`/yyp/api/v1/reports/${examId}/detail`, token);
    expect(report.body.examIds).toEqual([examId, abdomenId]);

    // The doctor places the diagram under the key images and marks two points.
    await doctor.getByRole('tab', { name: /关键图像/ }).click();
    await doctor.getByRole('button', { name: /放置示意图/ }).click();
    await doctor.getByRole('menuitem', { name: /人体正面示意图/ }).click();
    const graph = doctor.getByTestId('sample-graph');
    await graph.waitFor();
    const canvas = graph.getByTestId('sample-graph-canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    // The chest, then (in blue) the right lower abdomen.
    await canvas.click({ position: { x: box.width * 0.5, y: box.height * 0.32 } });
    await doctor.getByRole('radio', { name: '蓝色' }).click();
    await canvas.click({ position: { x: box.width * 0.42, y: box.height * 0.5 } });
    await expect.poll(() => graph.getByTestId('sample-mark').count()).toBe(2);
    expect(await graph.getByTestId('sample-mark-count').textContent()).toBe('2 个标记');
    type Placed = { graphs: { title: string; isPrinted: boolean; points: { label: string; color: string }[] }[] };
    const stored = () => api<Placed>(`/yyp/api/v1/reports/${examId}/sample-graphs`, token).then((r) => r.body.graphs);
    await expect
      .poll(async () => (await stored())[0]?.points.map((p) => `${p.label}${p.color}`))
      .toEqual(['1#f5222d', '2#1677ff']);

    // A click on mark 1 removes it; the next click puts number 1 back.
    await canvas.click({ position: { x: box.width * 0.5, y: box.height * 0.32 } });
    await expect.poll(() => graph.getByTestId('sample-mark').count()).toBe(1);
    await doctor.getByRole('radio', { name: '红色' }).click();
    await canvas.click({ position: { x: box.width * 0.58, y: box.height * 0.32 } });
    await expect.poll(() => graph.getByTestId('sample-mark').count()).toBe(2);
    await expect.poll(async () => (await stored())[0]?.points.map((p) => p.label)).toEqual(['2', '1']);
    // Each mark is a button of its own for the keyboard (Enter or Delete removes it).
    expect(await graph.getByRole('button', { name: '标记 1' }).count()).toBe(1);
    // A click (not uncheck(), which requires the state to flip within the same task): the box is
    // controlled by the placement's cached row, which the patch updates optimistically.
    const printed = graph.getByRole('checkbox', { name: '打印' });
    await printed.click();
    await expect.poll(() => printed.isChecked()).toBe(false);
    await expect.poll(async () => (await stored())[0]?.isPrinted).toBe(false);
    await graph.scrollIntoViewIfNeeded();
    await screenshot(doctor, 'report-sample-graph-marks');

    // The same panel in Tibetan (the account's language is put back afterwards).
    await chooseLanguage(doctor, '语言', 'བོད་ཡིག');
    await doctor.getByText('དཔེ་རིས།', { exact: true }).waitFor();
    await graph.scrollIntoViewIfNeeded();
    await screenshot(doctor, 'report-sample-graph-tib');
    await chooseLanguage(doctor, 'སྐད་ཡིག', '中文');
  });

  it('saves the text as a template, finds it in the library, renames and deletes it', async () => {
    doctor ??= await signedIn('doctor');
    await doctor.goto(editorUrl());
    await waitWritable(doctor);
    await findings(doctor).fill('胸腹部CT平扫：双肺清晰，肝脾胰未见异常。');
    await conclusion(doctor).fill('胸腹部CT平扫未见异常。');

    const library = doctor.locator('.yyp-report__library');
    await library.getByRole('button', { name: '存为模板' }).click();
    const dialog = doctor.getByRole('dialog', { name: '存为模板' });
    expect(await dialog.getByLabel('影像所见').inputValue()).toBe('胸腹部CT平扫：双肺清晰，肝脾胰未见异常。');
    expect(await dialog.getByLabel('设备类型').inputValue()).toBe('CT');
    await dialog.getByLabel('标题').fill('胸腹联合 正常');
    await dialog.getByLabel('分类').fill('胸腹部');
    await screenshot(doctor, 'report-template-save');
    await dialog.getByRole('button', { name: /确\s?定|OK/ }).click();
    await doctor.getByText('已保存模板"胸腹联合 正常"').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const item = library.getByRole('listitem').filter({ hasText: '胸腹联合 正常' });
    await item.waitFor();
    await screenshot(doctor, 'report-template-list');

    // Renamed in place...
    await item.getByRole('button', { name: '编辑模板"胸腹联合 正常"' }).click();
    const edit = doctor.getByRole('dialog', { name: '编辑模板' });
    await edit.getByLabel('标题').fill('胸腹联合 未见异常');
    await edit.getByRole('button', { name: /确\s?定|OK/ }).click();
    await doctor.getByText('已更新模板"胸腹联合 未见异常"').waitFor();
    const renamed = library.getByRole('listitem').filter({ hasText: '胸腹联合 未见异常' });
    await renamed.waitFor();

    // ...and deleted.
    await renamed.getByRole('button', { name: '删除模板"胸腹联合 未见异常"' }).click();
    await doctor
      .getByRole('tooltip')
      .getByRole('button', { name: /确\s?定|OK/ })
      .click();
    await doctor.getByText('已删除模板"胸腹联合 未见异常"').waitFor();
    await expect.poll(() => renamed.count()).toBe(0);
  });
});
