import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  apiRegister,
  baseUrl,
  examIdsOfPatient,
  jwtPayload,
  launchBrowser,
  loginViaUi,
  openPage,
  screenshot,
  shotIfFailed,
  signedInPage,
  stowStudy,
} from './support.js';

/**
 * Printing works out of the box (issue 20 item 6): a hospital that has just signed up (a new
 * account, its group and organization, no print template set by anyone) writes, approves and
 * prints its first report from the editor; the sheet is headed by the hospital and organization
 * names with the standard title, the PDF renders, and the admin finds the default in the settings.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let page: Page | undefined;
let token = '';
let groupId = '';
let orgId = '';
let examId = '';
const FOUNDER = { username: 'xyfounder', name: '卓玛', password: 'Kestrel#4812' };

beforeAll(async () => {
  browser = await launchBrowser();
  token = (await apiRegister(FOUNDER.username, FOUNDER.name, FOUNDER.password)).accessToken;
  const founderId = String(jwtPayload(token).sub ?? '');
  const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) });
  const group = await api<{ id: string }>('/yyp/api/v1/groups', token, json({ displayName: '雪域人民医院' }));
  expect(group.status).toBe(201);
  groupId = group.body.id;
  const org = await api<{ id: string }>(
    `/yyp/api/v1/groups/${groupId}/organizations`,
    token,
    json({ name: '影像科', code: 'XY-IMG' }),
  );
  expect(org.status).toBe(201);
  orgId = org.body.id;
  // The founder reads and signs its own reports here: admin of the organization with a reporting role.
  const role = await api<{ id: string }>(
    `/yyp/api/v1/buckets/${orgId}/roles`,
    token,
    json({
      name: '报告审核',
      actions: ['exam_get', 'exam_upload', 'view_privacy', 'report_upsert', 'report_approval', 'report_print'],
    }),
  );
  expect(role.status).toBe(201);
  const joined = await api(
    `/yyp/api/v1/buckets/${orgId}/members`,
    token,
    json({ accountIds: [founderId], accessLevel: 'admin' }),
  );
  expect(joined.status).toBe(200);
  const mapped = await api(`/yyp/api/v1/roles/${role.body.id}/mappings`, token, {
    method: 'PUT',
    body: JSON.stringify({ accountIds: [founderId] }),
  });
  expect(mapped.status).toBe(200);
  await stowStudy(token, orgId, {
    patientId: 'E2E-XY-1',
    patientName: '扎西',
    charset: 'ISO_IR 192',
    patientSex: 'M',
    studyDate: '20250502',
    studyTime: '101500',
    modality: 'CT',
    bodyPartExamined: 'CHEST',
    instancesPerSeries: 1,
    rows: 64,
    columns: 64,
  });
  const found = await examIdsOfPatient(token, 'E2E-XY-1');
  expect(found).toHaveLength(1);
  examId = found[0]!;
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, page);
});

describe('printing on a fresh install', () => {
  it('the first report of a new organization prints on the default template', async () => {
    const template = await api<{ template: { isDefault: boolean; hospitalName: string } }>(
      `/yyp/api/v1/buckets/${orgId}/print-template`,
      token,
    );
    expect(template.body.template).toMatchObject({ isDefault: true, hospitalName: '雪域人民医院 影像科' });

    const opened = await openPage(browser);
    contexts.push(opened.context);
    page = opened.page;
    // Count the browser's print calls instead of opening its dialog.
    await page.addInitScript(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await loginViaUi(page, FOUNDER.username, FOUNDER.password);
    await page.goto(`/studies/${examId}/reports/${examId}`);
    await page.getByLabel('影像所见', { exact: true }).fill('双肺纹理清晰，未见实质性病变。');
    await page.getByLabel('诊断意见', { exact: true }).fill('胸部CT平扫未见明显异常。');
    await page.locator('.yyp-report__actions [data-action="approveAndPrint"]').click();
    await page.waitForURL(`**/studies/${examId}/reports/${examId}/print?auto=1&recorded=1`);
    const sheet = page.locator('.yyp-print-sheet');
    await sheet.waitFor();
    expect(await sheet.locator('.yyp-print-sheet__hospital').textContent()).toBe('雪域人民医院 影像科');
    expect((await sheet.locator('.yyp-print-sheet__title').textContent())?.trim()).not.toBe('');
    expect(await sheet.textContent()).toContain('胸部CT平扫未见明显异常');
    await expect.poll(() => page!.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await screenshot(page, 'print-default-first-print', { fullPage: true });

    // The PDF of the same report renders on the same template.
    const pdf = await fetch(`${baseUrl()}/yyp/api/v1/reports/${examId}/pdf`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await pdf.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it('the admin finds the default template in the organization settings', async () => {
    page = await signedInPage(browser, contexts, FOUNDER.username, FOUNDER.password);
    await page.goto(`/groups/${groupId}/organizations/${orgId}?tab=settings`);
    const card = page.getByTestId('print-template-card');
    await card.waitFor();
    await card.getByTestId('print-template-default').waitFor();
    await expect.poll(() => card.getByLabel('医院名称').inputValue()).toBe('雪域人民医院 影像科');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'print-default-template-settings');
  });
});
