import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, failedShotPath, launchBrowser, loginViaUi, openPage, screenshot } from './support.js';

/**
 * Report table colours (issue 8): the demo group admin adds "approved → green background" in the
 * group settings; the senior doctor's study list shows an approved report's status in it. 陈静's
 * physical-exam chest film (体检中心, where the senior writes and approves) is approved through the
 * API first. The colour is removed afterwards so other specs' screenshots keep the default look.
 */

const GREEN = '#52c41a';
const RULE = `已审核绿色-${Date.now().toString(36)}`;

let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: Page | undefined;
let senior: Page | undefined;
let groupadminToken = '';

interface ExamPage {
  exams: { id: string; patientName: string; modality: string; reportStatus: string }[];
}

async function waitForExam(token: string): Promise<ExamPage['exams'][number]> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const res = await api<ExamPage>('/yyp/api/v1/exams/page-query', token, {
      method: 'POST',
      body: JSON.stringify({ filters: [], limit: 50 }),
    });
    const exam = res.body.exams.find((e) => e.patientName === '陈静' && e.modality === 'DX');
    if (exam) return exam;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the demo study of 陈静 did not appear within 90 s');
}

beforeAll(async () => {
  browser = await launchBrowser();
  groupadminToken = (await apiLogin('groupadmin')).accessToken;
  const seniorToken = (await apiLogin('senior')).accessToken;
  const exam = await waitForExam(seniorToken);
  if (exam.reportStatus !== 'corrected') {
    const approved = await api<{ status: string }>(`/yyp/api/v1/reports/${exam.id}/approve`, seniorToken, {
      method: 'POST',
      body: JSON.stringify({
        version: 0,
        content: {
          findings: '胸廓对称，双肺纹理清晰，未见明确实质性病变。心影大小形态正常。',
          conclusion: '胸部未见明显异常。',
          positive: false,
          note: '',
          bodyPartCount: 1,
          advice: '',
          extensions: {},
        },
      }),
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.status).toBe('corrected');
  }
});

afterAll(async () => {
  const listed = await api<{ items: { id: string; name: string }[] }>(
    '/yyp/api/v1/report-table-color?groupId=demo-renhe',
    groupadminToken,
  );
  for (const c of listed.body?.items ?? []) {
    if (c.name === RULE) await api(`/yyp/api/v1/report-table-color/${c.id}`, groupadminToken, { method: 'DELETE' });
  }
  await browser?.close();
});

afterEach(async ({ task }) => {
  if ((task.result?.errors?.length ?? 0) > 0) {
    await admin?.screenshot({ path: failedShotPath(`${task.name}-admin`) }).catch(() => undefined);
    await senior?.screenshot({ path: failedShotPath(`${task.name}-senior`) }).catch(() => undefined);
  }
  for (const c of contexts.splice(0)) await c.close();
});

describe('report table colours', () => {
  it('the group admin adds "approved → green" and the senior sees it in the study list', async () => {
    const a = await openPage(browser);
    contexts.push(a.context);
    admin = a.page;
    await loginViaUi(admin, 'groupadmin');
    await admin.getByRole('link', { name: '我的集团' }).click();
    await admin.getByRole('link', { name: '仁和医院' }).first().click();
    await admin.getByRole('heading', { name: '仁和医院' }).waitFor();
    await admin.getByRole('tab', { name: '设置' }).click();
    const card = admin.getByTestId('report-colors-card');
    await card.getByText('报告表格颜色', { exact: true }).waitFor();

    await card.getByRole('button', { name: '添加颜色' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText('新建报告颜色').waitFor();
    await dialog.getByLabel('名称').fill(RULE);
    // What it matches: the report status 已审核 (approved), picked by its translated name.
    await dialog.getByLabel('报告状态').click();
    await admin
      .locator('.ant-select-item-option')
      .filter({ hasText: /^已审核$/ })
      .click();
    // The status list takes several: it stays open until the admin clicks elsewhere.
    await dialog.getByText('新建报告颜色').click();
    await admin.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
    // Background: typed into the colour picker's hex field.
    await dialog.locator('.ant-color-picker-trigger').nth(1).click();
    const hex = admin.locator('.ant-popover:visible .ant-color-picker-hex-input input');
    await hex.fill(GREEN.slice(1));
    await hex.press('Enter');
    await dialog.getByText('新建报告颜色').click();
    await admin.locator('.ant-popover:visible').waitFor({ state: 'hidden' });
    await screenshot(admin, 'report-colors-dialog');
    await dialog.getByRole('button', { name: /保\s?存/ }).click();
    await admin.getByText(`颜色 ${RULE} 已保存`).waitFor();

    const row = card.getByRole('row').filter({ hasText: RULE });
    await row.getByText('报告状态 = 已审核').waitFor();
    const sample = row.getByTestId('report-status');
    expect(await sample.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(82, 196, 26)');
    await card.scrollIntoViewIfNeeded();
    await screenshot(admin, 'report-colors-settings');

    const s = await openPage(browser);
    contexts.push(s.context);
    senior = s.page;
    await loginViaUi(senior, 'senior');
    const examRow = senior.getByRole('row').filter({ hasText: '陈静' }).filter({ hasText: 'DX' });
    const status = examRow.getByTestId('report-status');
    await status.getByText('已审核').waitFor();
    expect(await status.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(82, 196, 26)');
    expect(await status.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');
    // A status no colour matches keeps its own look.
    const other = senior.getByTestId('report-status').filter({ hasNotText: '已审核' }).first();
    expect(await other.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgb(82, 196, 26)');
    await screenshot(senior, 'report-colors-list');
  }, 180_000);
});
