import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseLanguage,
  launchBrowser,
  loginViaUi,
  openPage,
  screenshot,
  shotIfFailed,
  waitForZhangWeiCts,
} from './support.js';

/**
 * The report editor as a department uses it (issue 7 "Done when"): the doctor opens yesterday's
 * chest CT of 张伟 from the study list, applies the normal chest CT template, inserts a phrase from
 * the group knowledge base, adds a key image and submits; while the doctor has it open the senior
 * sees who holds it; the senior rejects it with a reason; the doctor fixes and resubmits; the
 * senior approves; the trace shows every step and the change between the two submissions.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let doctor: Page;
let senior: Page;
let examId = '';

async function signedIn(username: string): Promise<Page> {
  const { context, page } = await openPage(browser);
  contexts.push(context);
  await loginViaUi(page, username);
  return page;
}

const findings = (p: Page) => p.getByLabel('影像所见', { exact: true });
const conclusion = (p: Page) => p.getByLabel('诊断意见', { exact: true });
const statusTag = (p: Page) => p.locator('.yyp-report__header [data-testid="report-status"]');
const actionButton = (p: Page, action: string) => p.locator(`.yyp-report__actions [data-action="${action}"]`);
const editorUrl = () => `/studies/${examId}/reports/${examId}`;

/** The editor holds the lock when the findings can be typed into. */
async function waitWritable(p: Page): Promise<void> {
  // On a loaded 2-core machine taking the lock may take a while.
  await expect
    .poll(() => findings(p).evaluate((el) => (el as HTMLTextAreaElement).readOnly), { timeout: 20_000 })
    .toBe(false);
}

beforeAll(async () => {
  browser = await launchBrowser();
  const ct = await waitForZhangWeiCts();
  // The newest first: yesterday's CT.
  examId = [...ct].sort((a, b) => b.studyDate.localeCompare(a.studyDate))[0]!.id;
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, doctor, 'doctor');
  await shotIfFailed(task, senior, 'senior');
});

describe('report editor', () => {
  it('doctor writes from the library, senior sees the lock, rejects, doctor resubmits, senior approves', async () => {
    // The doctor opens the CT from the study list.
    doctor = await signedIn('doctor');
    await doctor.getByRole('tab', { name: '全部检查' }).click();
    await doctor.getByTestId(`report-${examId}`).click();
    await doctor.waitForURL(`**${editorUrl()}`);
    await waitWritable(doctor);
    // The doctor (报告医生, view_privacy) sees whom it reads (issue 20 item 1).
    await expect.poll(() => doctor.locator('.yyp-report__name').textContent()).toMatch(/^张/);
    await screenshot(doctor, 'report-editor-open');

    // F1 opens the images in the viewer (whose own F1 sends key images to this report).
    const [viewer] = await Promise.all([doctor.context().waitForEvent('page'), doctor.keyboard.press('F1')]);
    await viewer.waitForURL(/\/viewer\//);
    await viewer.close();

    // A template fills the empty report.
    const library = doctor.locator('.yyp-report__library');
    await library.getByRole('button', { name: /^胸部CT平扫 正常/ }).click();
    await expect.poll(() => findings(doctor).inputValue()).toContain('双肺纹理清晰');
    expect(await conclusion(doctor).inputValue()).toBe('胸部CT平扫未见明显异常。');

    // A phrase goes in at the caret of the findings: at its very start here.
    await findings(doctor).click();
    await doctor.keyboard.press('Control+Home');
    await library.getByRole('tab', { name: '常用语' }).click();
    await library.getByText('肺部', { exact: true }).click();
    await library.getByText('支气管通畅', { exact: true }).click();
    await expect.poll(() => findings(doctor).inputValue()).toMatch(/^气管及各叶段支气管通畅，未见狭窄或扩张。胸廓对称/);

    // A key image from a local file (a PNG of part of the page itself).
    const png = await doctor.screenshot({ clip: { x: 0, y: 0, width: 320, height: 240 } });
    await doctor.getByRole('tab', { name: /关键图像/ }).click();
    const before = await doctor.getByTestId('key-image').count();
    await doctor.getByTestId('key-image-file').setInputFiles({ name: 'key.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => doctor.getByTestId('key-image').count()).toBe(before + 1);
    await doctor.getByTestId('key-image').last().getByLabel('描述').fill('右肺上叶');
    await doctor.getByTestId('key-image').last().getByLabel('描述').press('Enter');

    // Autosave or Ctrl+S: the draft is stored without leaving the editor.
    await doctor.keyboard.press('Control+s');
    await expect.poll(() => doctor.getByTestId('save-state').textContent()).toMatch(/已于 \d\d:\d\d:\d\d 保存/);
    await screenshot(doctor, 'report-editor-written');

    // While the doctor edits, the senior sees who holds the report, read-only.
    senior = await signedIn('senior');
    await senior.goto(editorUrl());
    await senior.getByText('报告已被 李医生 锁定').waitFor();
    expect(await findings(senior).evaluate((el) => (el as HTMLTextAreaElement).readOnly)).toBe(true);
    expect(await senior.locator('.yyp-report__actions [data-action]').count()).toBe(0);
    await screenshot(senior, 'report-locked-by');

    // The doctor submits with Ctrl+Enter; the report is now the approver's.
    await findings(doctor).click();
    await doctor.keyboard.press('Control+Enter');
    await expect.poll(() => statusTag(doctor).textContent()).toBe('待审核');
    expect(await actionButton(doctor, 'cancelSubmit').count()).toBe(1);

    // The senior rejects it with a reason (required).
    await senior.reload();
    await waitWritable(senior);
    await actionButton(senior, 'reject').click();
    const dialog = senior.getByRole('dialog');
    await dialog.getByRole('button', { name: /^驳\s?回$/ }).click();
    await dialog.getByText('请填写原因。').waitFor();
    await dialog.getByLabel('原因').fill('请补充结节大小。');
    await screenshot(senior, 'report-reject-reason');
    await dialog.getByRole('button', { name: /^驳\s?回$/ }).click();
    await expect.poll(() => statusTag(senior).textContent()).toBe('已驳回');

    // The doctor reads the reason, fixes the text and submits again.
    await doctor.reload();
    await waitWritable(doctor);
    await doctor.getByRole('tab', { name: '评论' }).click();
    await expect.poll(() => doctor.getByTestId('comment-reject').textContent()).toBe('请补充结节大小。');
    await conclusion(doctor).click();
    await doctor.keyboard.press('Control+End');
    await doctor.keyboard.type('右肺上叶小结节，大小约5mm。');
    await actionButton(doctor, 'submit').click();
    await expect.poll(() => statusTag(doctor).textContent()).toBe('待审核');

    // The senior approves with Ctrl+Shift+Enter.
    await senior.reload();
    await waitWritable(senior);
    await findings(senior).click();
    await senior.keyboard.press('Control+Shift+Enter');
    await expect.poll(() => statusTag(senior).textContent()).toBe('已审核');

    // The trace lists every step; the two submissions compared show what the doctor added.
    await senior.getByRole('tab', { name: '痕迹' }).click();
    const rows = senior.locator('.yyp-report__side .ant-table-tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(5);
    const actions = await rows.locator('td:nth-child(3)').allTextContents();
    const stepOf = (name: string) => actions.map((a, i) => (a.startsWith(name) ? i : -1)).filter((i) => i >= 0);
    expect(stepOf('提交')).toHaveLength(2);
    expect(stepOf('驳回')).toHaveLength(1);
    expect(stepOf('审核通过')).toHaveLength(1);
    const [first, second] = stepOf('提交') as [number, number];
    await rows.nth(first).locator('input[type=checkbox]').check();
    await rows.nth(second).locator('input[type=checkbox]').check();
    await senior.getByRole('button', { name: /^对\s?比$/ }).click();
    const diff = senior.getByTestId('trace-diff');
    await diff.waitFor();
    expect((await diff.locator('ins').allTextContents()).join('')).toContain('右肺上叶小结节，大小约5mm。');
    await diff.scrollIntoViewIfNeeded();
    await screenshot(senior, 'report-trace-diff');

    // The same page in English and in Tibetan (the account's language is put back afterwards).
    await chooseLanguage(senior, '语言', 'English');
    await senior.getByRole('tab', { name: 'Trace' }).waitFor();
    await screenshot(senior, 'report-approved-en');
    await chooseLanguage(senior, 'Language', 'བོད་ཡིག');
    await senior.getByRole('tab', { name: 'རྗེས་ཤུལ།' }).waitFor();
    await screenshot(senior, 'report-approved-tib');
    await chooseLanguage(senior, 'སྐད་ཡིག', '中文');

    // The doctor moves on without going back to the list: the worklist, and Alt+N for the next one.
    await doctor.getByRole('tab', { name: '历史' }).click();
    await doctor.locator('.yyp-report__past').first().waitFor();
    await doctor.getByRole('tab', { name: '工作列表' }).click();
    await doctor.locator('.yyp-report__work-button').first().waitFor();
    await screenshot(doctor, 'report-worklist');
    await doctor.keyboard.press('Alt+n');
    await doctor.waitForURL(
      (url) => /\/studies\/[^/]+\/reports\/[^/]+$/.test(url.pathname) && !url.pathname.includes(examId),
    );
    await findings(doctor).waitFor();
  });
});
