import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, launchBrowser, loginViaUi, openPage, screenshot, shotIfFailed } from './support.js';

/**
 * Who sees whom (issue 20 item 1, spec 000 §6): the hospital group (仁和医院) keeps privacy off, so
 * the demo doctor sees 张伟's full name and patient id in the study list, the report editor and
 * the viewer's overlay; the teleradiology group turns privacy on, so its remote reader
 * (远程阅片医生, no view_privacy) sees masks everywhere.
 */

let browser: Browser;
let context: BrowserContext | undefined;
let page: Page | undefined;

interface ExamPage {
  exams: { id: string; patientName: string; patientId: string; modality: string; studyDate: string }[];
}

/** The demo studies are generated in the background at first start: wait for those used here. */
async function waitForStudies(): Promise<ExamPage['exams']> {
  const token = (await apiLogin('senior')).accessToken;
  const tele = (await apiLogin('expert')).accessToken;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const [hospital, remote] = await Promise.all(
      [token, tele].map((t) =>
        api<ExamPage>('/yyp/api/v1/exams/page-query', t, {
          method: 'POST',
          body: JSON.stringify({ filters: [], limit: 50 }),
        }),
      ),
    );
    const ct = hospital!.body.exams.filter((e) => e.patientName === '张伟' && e.modality === 'CT');
    // 刘洋's ultrasound is generated after both CTs of 张伟, and before the teleradiology studies.
    if (ct.length === 2 && remote!.body.exams.some((e) => e.patientName === '赵磊')) return ct;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('demo studies did not appear within 120 s');
}

const rows = (p: Page) => p.locator('.ant-table-tbody tr.ant-table-row');

let olderCt = '';

beforeAll(async () => {
  browser = await launchBrowser();
  const ct = await waitForStudies();
  olderCt = [...ct].sort((a, b) => a.studyDate.localeCompare(b.studyDate))[0]!.id;
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, page);
  await context?.close();
  context = undefined;
});

describe('privacy off: the reading doctor sees whom it reads', () => {
  it('shows 张伟 and RH0001 to the demo doctor in the list, the viewer overlay and the report editor', async () => {
    ({ context, page } = await openPage(browser));
    await loginViaUi(page, 'doctor');
    await page.getByRole('tab', { name: '昨天', exact: true }).click();
    const row = rows(page).filter({ hasText: '张伟' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await rows(page).filter({ hasText: '张*' }).count()).toBe(0);
    await page.mouse.move(0, 0);
    await screenshot(page, 'privacy-doctor-studies');
    // The detail drawer shows the patient id whole.
    await row.getByRole('button', { name: /详\s*情/ }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText('RH0001').first().waitFor();
    await screenshot(page, 'privacy-doctor-detail');
    await page.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });

    const [viewer] = await Promise.all([
      context.waitForEvent('page'),
      row.getByRole('button', { name: '影像' }).click(),
    ]);
    viewer.setDefaultTimeout(20_000);
    await viewer.setViewportSize({ width: 1280, height: 800 });
    await viewer.getByTestId('instance-0').filter({ hasText: '/120)' }).waitFor();
    await expect.poll(() => viewer.getByTestId('overlay-tl-0').textContent()).toContain('张伟');
    expect(await viewer.getByTestId('overlay-tl-0').textContent()).toContain('RH0001');
    await screenshot(viewer, 'privacy-doctor-viewer');
    await viewer.close();

    // Last year's CT: reading its report header (opening takes no lock).
    await page.goto(`/studies/${olderCt}/reports/${olderCt}`);
    await expect.poll(() => page!.locator('.yyp-report__name').textContent()).toContain('张伟');
    await page.getByText('RH0001').first().waitFor();
    await screenshot(page, 'privacy-doctor-editor');
  });
});

describe('privacy on: a member without view_privacy sees masks', () => {
  it('masks 赵磊 for the teleradiology group’s remote reader in the list and the viewer', async () => {
    ({ context, page } = await openPage(browser));
    await loginViaUi(page, 'teledoctor');
    await page.getByRole('tab', { name: '昨天', exact: true }).click();
    const row = rows(page).filter({ hasText: '赵*' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await rows(page).filter({ hasText: '赵磊' }).count()).toBe(0);
    expect(await rows(page).filter({ hasText: 'XH0001' }).count()).toBe(0);
    await page.mouse.move(0, 0);
    await screenshot(page, 'privacy-teledoctor-studies');

    const [viewer] = await Promise.all([
      context.waitForEvent('page'),
      row.getByRole('button', { name: '影像' }).click(),
    ]);
    viewer.setDefaultTimeout(20_000);
    await viewer.setViewportSize({ width: 1280, height: 800 });
    await viewer.getByTestId('instance-0').filter({ hasText: '/100)' }).waitFor();
    await expect.poll(() => viewer.getByTestId('overlay-tl-0').textContent()).toContain('赵*');
    expect(await viewer.getByTestId('overlay-tl-0').textContent()).not.toContain('赵磊');
    expect(await viewer.getByTestId('overlay-tl-0').textContent()).not.toContain('XH0001');
    await screenshot(viewer, 'privacy-teledoctor-viewer');
    await viewer.close();
  });
});

describe('publishing can be shown (issue 20 item 4)', () => {
  it('gives the demo approving doctor (审核医生, order_report_publish) the publish list in the menu', async () => {
    ({ context, page } = await openPage(browser));
    await loginViaUi(page, 'senior');
    await page.getByRole('menuitem', { name: '报告发布' }).click();
    await page.waitForURL('**/report-publish');
    await page.getByRole('heading', { name: '报告发布' }).waitFor();
    await screenshot(page, 'privacy-senior-report-publish');
  });
});
