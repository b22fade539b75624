import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, failedShotPath, launchBrowser, openPage, signIn, screenshot } from './support.js';

/**
 * Buttons follow permissions (issue 20 items 2 and 3): the note-taker — a collaborator of 放射科
 * whose role gives report rights only — finds an exam in /studies, writes and saves its report,
 * and is never offered a delete, export, upload or exam edit; the demo doctor, whose role lacks
 * export_exams, is not offered Export (it used to be shown and to fail silently with 403).
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let page: Page | undefined;

interface ExamPage {
  exams: { id: string; patientName: string; reportStatus: string; bucketName: string }[];
}

/** The demo studies are generated in the background at first start: wait until the list has them. */
async function waitForExams(username: string): Promise<ExamPage['exams']> {
  const token = (await apiLogin(username)).accessToken;
  const deadline = Date.now() + 90_000;
  let last: { status: number; body: unknown } = { status: 0, body: null };
  while (Date.now() < deadline) {
    const res = await api<ExamPage>('/yyp/api/v1/exams/page-query', token, {
      method: 'POST',
      body: JSON.stringify({ filters: [], limit: 50 }),
    });
    last = res;
    if (res.status === 200 && res.body.exams.length >= 2) return res.body.exams;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`no exams for ${username} within 90 s: ${last.status} ${JSON.stringify(last.body).slice(0, 300)}`);
}

async function signedIn(username: string): Promise<Page> {
  const opened = await openPage(browser);
  contexts.push(opened.context);
  page = opened.page;
  await signIn(page, username);
  return page;
}

/**
 * Buttons inside `scope` by their visible text alone: the icon's label is not part of it, and the
 * space Ant Design puts between two Chinese characters (详 情) is allowed for.
 */
const buttonNamed = (scope: Locator, text: string) =>
  scope.locator('button', { hasText: new RegExp(`^\\s*${[...text].join('\\s*')}\\s*$`) });
const headingButton = (p: Page, name: string) => buttonNamed(p.locator('.yyp-studies'), name);

/** The study list with every date (the default quick search is today's). */
async function allExams(p: Page): Promise<void> {
  await p.getByRole('tab', { name: '全部检查' }).click();
  await p.locator('[data-testid^="report-"]').first().waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async ({ task }) => {
  if ((task.result?.errors?.length ?? 0) > 0) {
    await page?.screenshot({ path: failedShotPath(task.name) }).catch(() => undefined);
  }
  for (const context of contexts.splice(0)) await context.close();
});

describe('buttons follow permissions', () => {
  it('the note-taker finds an exam in /studies, writes and saves its report, and is offered nothing else', async () => {
    const exams = await waitForExams('notetaker');
    const target = exams.find((e) => e.reportStatus === 'none') ?? exams[0]!;
    const p = await signedIn('notetaker');
    await allExams(p);
    await p.getByTestId(`report-${target.id}`).waitFor();

    // No export, no deleted view, no upload; no row menu (download, printed mark, delete).
    for (const name of ['导出', '已删除检查', '上传检查']) {
      expect(await headingButton(p, name).count(), name).toBe(0);
    }
    expect(await p.locator('[data-testid^="more-"]').count()).toBe(0);
    await screenshot(p, 'permissions-notetaker-studies');

    // The exam's detail offers no edit of its fields.
    await buttonNamed(p.locator('tr', { has: p.getByTestId(`report-${target.id}`) }), '详情').click();
    const drawer = p.getByRole('dialog');
    await drawer.getByText('检查号', { exact: true }).waitFor();
    expect(await buttonNamed(drawer, '编辑').count()).toBe(0);
    await screenshot(p, 'permissions-notetaker-detail');
    await drawer.locator('.ant-drawer-close').click();
    await drawer.getByText('检查号', { exact: true }).waitFor({ state: 'hidden' });

    // The editor: type, save with Ctrl+S, and see it saved.
    await p.getByTestId(`report-${target.id}`).click();
    await p.waitForURL(`**/studies/${target.id}/reports/${target.id}`);
    const findings = p.getByLabel('影像所见', { exact: true });
    const conclusion = p.getByLabel('诊断意见', { exact: true });
    await findings.waitFor();
    await expect
      .poll(() => findings.evaluate((el) => (el as HTMLTextAreaElement).readOnly), { timeout: 20_000 })
      .toBe(false);
    await findings.click();
    await p.keyboard.type('双肺纹理清晰，未见实质性病变。（记录员录入）');
    await conclusion.click();
    await p.keyboard.type('胸部未见明显异常。');
    await p.keyboard.press('Control+s');
    await expect
      .poll(() => p.getByTestId('save-state').textContent(), { timeout: 20_000 })
      .toMatch(/已于 \d\d:\d\d:\d\d 保存/);

    // Writing, never approving: save and submit at most; nothing that deletes, exports or uploads.
    const actions = await p
      .locator('.yyp-report__actions [data-action]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-action')));
    expect(actions).toContain('save');
    expect(actions).not.toContain('approve');
    for (const name of ['导出', '删除', '上传检查', '编辑']) {
      expect(await buttonNamed(p.locator('.yyp-report'), name).count(), name).toBe(0);
    }
    await screenshot(p, 'permissions-notetaker-editor');

    // The images open for the exam being written (no silent refusal behind the button).
    const [viewer] = await Promise.all([
      p.context().waitForEvent('page'),
      buttonNamed(p.locator('.yyp-report'), '看图').click(),
    ]);
    await viewer.waitForURL(/\/viewer\//);
    await viewer.close();

    // The report really is stored with the note-taker's text.
    const token = (await apiLogin('notetaker')).accessToken;
    const stored = await api<{ content: { findings: string } }>(`/yyp/api/v1/reports/${target.id}/detail`, token);
    expect(stored.status).toBe(200);
    expect(stored.body.content.findings).toContain('记录员录入');
  });

  it('the doctor, without export_exams, is not offered Export; the senior holding it is', async () => {
    await waitForExams('doctor');
    const doctor = await signedIn('doctor');
    await allExams(doctor);
    // The row menu is there (the doctor edits exams), so the list and permissions have arrived.
    await doctor.locator('[data-testid^="more-"]').first().waitFor();
    expect(await headingButton(doctor, '导出').count()).toBe(0);
    await screenshot(doctor, 'permissions-doctor-studies');

    const senior = await signedIn('senior');
    await allExams(senior);
    await headingButton(senior, '导出').waitFor();
    await screenshot(senior, 'permissions-senior-studies');
  });
});
