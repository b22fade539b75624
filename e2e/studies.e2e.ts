import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  chooseLanguage,
  launchBrowser,
  signIn,
  openPage,
  screenshot,
  settle,
  shotIfFailed,
} from './support.js';

/**
 * The study list as a doctor uses it (issue 5 "Done when"): the senior doctor lands on /studies,
 * finds yesterday's CT of 张伟 by typing two letters of the name, filters by modality and study
 * date, saves that as a quick search, exports the list, deletes an exam and recovers it, and never
 * sees the teleradiology group's exams.
 */

let browser: Browser;
let context: BrowserContext;
let page: Page;

interface ExamPage {
  exams: { id: string; patientName: string; modality: string; bucketName: string }[];
  count: number;
}

/** The demo studies are generated in the background at first start: wait for the ones used here. */
async function waitForDemoStudies(): Promise<void> {
  const token = (await apiLogin('senior')).accessToken;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const res = await api<ExamPage>('/yyp/api/v1/exams/page-query', token, {
      method: 'POST',
      body: JSON.stringify({ filters: [], limit: 50 }),
    });
    const names = res.body.exams.map((e) => e.patientName);
    if (names.includes('张伟') && names.includes('刘洋')) {
      return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('demo studies did not appear within 90 s');
}

const rows = (p: Page) => p.locator('.ant-table-tbody tr.ant-table-row');
const rowOf = (p: Page, name: string) => rows(p).filter({ hasText: name });

beforeAll(async () => {
  browser = await launchBrowser();
  await waitForDemoStudies();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, page);
});

describe('study list', () => {
  it('finds yesterday’s CT by two letters of the name, filters, saves a quick search and exports', async () => {
    ({ context, page } = await openPage(browser));
    await signIn(page, 'senior');
    // The list reopens on the tab this doctor used last (a stored preference): start from all exams.
    await page.getByRole('tab', { name: '全部检查' }).click();
    await rowOf(page, '张伟').first().waitFor();
    // Another group's exams (协和远程影像中心: 赵磊, Smith^John) are never listed.
    await expect(rowOf(page, '赵磊').count()).resolves.toBe(0);
    await expect(rowOf(page, 'Smith').count()).resolves.toBe(0);
    await screenshot(page, 'studies-list');

    // Two letters of the name, as pinyin initials.
    await page.keyboard.press('/');
    await page.keyboard.type('zw');
    // 张伟's CTs of this year and last year.
    await expect.poll(() => rows(page).count(), { timeout: 10_000 }).toBe(2);
    await expect(rowOf(page, '张伟').count()).resolves.toBe(2);

    // Yesterday's tab and the CT modality keep it; today's tab does not.
    await page.getByRole('tab', { name: '今天' }).click();
    await expect.poll(() => rowOf(page, '张伟').count(), { timeout: 15_000 }).toBe(0);
    await page.getByRole('tab', { name: '昨天' }).click();
    await rowOf(page, '张伟').waitFor();
    // The pointer leaves the tabs: a toolbar button's tooltip under it would take the next click.
    await page.mouse.move(0, 0);
    await page.getByLabel('检查类型').click();
    await page.getByTitle('CT', { exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(1);
    await page.getByLabel('检查类型').click();
    await page.getByTitle('MR', { exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => rowOf(page, '张伟').count(), { timeout: 15_000 }).toBe(1);
    await screenshot(page, 'studies-filtered');

    // Saved as a quick search, it becomes a tab of its own.
    await page.getByRole('button', { name: '保存为快捷查询' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('名称').fill('昨天CT张伟');
    await screenshot(page, 'studies-save-quick');
    await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
    await page.getByRole('tab', { name: '昨天CT张伟', selected: true }).waitFor();
    await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(1);
    const token = (await apiLogin('senior')).accessToken;
    const saved = await api<
      { title: string; criteria: { studyDate: { preset: string }; filters: { field: string }[] } }[]
    >('/yyp/api/v1/custom-search/my?type=study', token);
    const mine = saved.body.find((q) => q.title === '昨天CT张伟');
    expect(mine?.criteria.studyDate.preset).toBe('yesterday');
    expect(mine?.criteria.filters.map((f) => f.field).sort()).toEqual(['keyword', 'modality']);

    // Export: an .xlsx arrives.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /导出$/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^exams-\d{8}\.xlsx$/);
    const bytes = fs.readFileSync((await file.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    await context.close();
  });

  it('deletes an exam and recovers it from the deleted exams', async () => {
    ({ context, page } = await openPage(browser));
    await signIn(page, 'senior');
    await page.getByRole('tab', { name: '全部检查' }).click();
    await rowOf(page, '刘洋').waitFor();

    await rowOf(page, '刘洋').getByRole('button', { name: '操作' }).click();
    await page.getByRole('menuitem', { name: '删除' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    await expect.poll(() => rowOf(page, '刘洋').count(), { timeout: 15_000 }).toBe(0);

    await page.getByRole('button', { name: '已删除检查' }).click();
    await page.waitForURL('**/studies?view=deleted');
    await rowOf(page, '刘洋').waitFor();
    await screenshot(page, 'studies-deleted');
    await rowOf(page, '刘洋').getByRole('button', { name: '恢复' }).click();
    await expect.poll(() => rowOf(page, '刘洋').count(), { timeout: 15_000 }).toBe(0);

    await page.getByRole('button', { name: '返回列表' }).click();
    await rowOf(page, '刘洋').waitFor();
    await context.close();
  });

  it('opens the advanced search and the exam detail drawer (and in Tibetan)', async () => {
    ({ context, page } = await openPage(browser));
    await signIn(page, 'senior');
    await page.getByRole('tab', { name: '全部检查' }).click();
    // 张伟 has this year's CT and last year's: the newest is listed first.
    await rowOf(page, '张伟').first().waitFor();

    await page.getByRole('button', { name: '高级搜索' }).click();
    await page.getByRole('dialog').getByText('患者来源').waitFor();
    await screenshot(page, 'studies-advanced');
    await page.keyboard.press('Escape');
    await settle(page);

    await rowOf(page, '张伟')
      .first()
      .getByRole('button', { name: /^详\s*情$/ })
      .click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText('呼吸内科').waitFor();
    await drawer.getByText('ZY20261').waitFor();
    await screenshot(page, 'studies-detail');
    await page.keyboard.press('Escape');
    await settle(page);

    // The signed-in user's saved language wins over the browser's: switch through the menu.
    await chooseLanguage(page, '语言', 'བོད་ཡིག');
    await page.getByRole('heading', { name: 'སྙན་ཞུའི་ལས་སྟེགས།' }).waitFor();
    await rowOf(page, '张伟').first().waitFor();
    // Ant Design's own texts too (no Tibetan locale ships with it: i18n/antd-tib.ts).
    const rangeStart = await page.locator('.ant-picker-range input').first().getAttribute('placeholder');
    expect(rangeStart).toBe('འགོ་འཛུགས་ཚེས་གྲངས།');
    await screenshot(page, 'studies-list-tib');
    await chooseLanguage(page, 'སྐད་ཡིག', '中文');
    await page.getByRole('heading', { name: '报告工作站' }).waitFor();
    await context.close();
  });
});
