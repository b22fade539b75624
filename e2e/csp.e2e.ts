import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateStudy, writeStudy } from '../packages/server/src/dicom/testdata/generate.js';
import { makePng } from '../packages/server/src/modules/report-print/png.fixture.js';
import {
  api,
  apiLogin,
  DEMO_PASSWORD,
  launchBrowser,
  loginViaUi,
  openPage,
  screenshot,
  stowStudy,
  submitLogin,
  shotIfFailed,
} from './support.js';

/**
 * The pages' Content-Security-Policy breaks no screen (issue 19 item 7): with every console message
 * and 'securitypolicyviolation' event watched, a senior signs in, lists studies, opens a study in
 * the viewer and measures on it, opens its report and the share dialog, prints it; an anonymous
 * visitor opens the share link; a technician opens the upload wizard and an outsider uploads
 * through an organization's link. Not one violation; each page answers its headers. A style and an
 * inline handler injected into markup are refused, so the watch itself is seen to work.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let page: Page | undefined;
let workDir = '';
let examId = '';
let radiologyId = '';
let shareUrl = '';
let uploadToken = '';
/** What the browser reported: CSP violations, and console lines about the policy or permissions. */
const violations: string[] = [];
const PATIENT_ID = `E2E-CSP-${Date.now().toString(36)}`;

/** A 128×128 gray PNG (a key image of the report). */
const png = () =>
  makePng(128, 128, (x, y) => {
    const v = (x * 2) ^ (y * 2);
    return [v, v, v, 255];
  });

/** A fresh browser context whose every page (popups included) reports violations into `violations`. */
async function watchedPage(options: { stubPrint?: boolean } = {}): Promise<Page> {
  const { context, page: opened } = await openPage(browser);
  contexts.push(context);
  await context.exposeBinding('yypCspViolation', ({ page: from }, text: string) => {
    violations.push(`${from.url()}: ${text}`);
  });
  await context.addInitScript((stubPrint: boolean) => {
    const report = (window as unknown as { yypCspViolation: (text: string) => void }).yypCspViolation;
    document.addEventListener('securitypolicyviolation', (e) => {
      report(
        `${e.effectiveDirective} refused ${e.blockedURI || 'inline'} (${e.sample}) at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
    if (stubPrint) window.print = () => undefined;
  }, options.stubPrint ?? false);
  const watch = (p: Page) => {
    p.on('console', (message) => {
      if (/content security policy|refused to|permissions.policy|nonce/i.test(message.text())) {
        violations.push(`${p.url()}: console ${message.type()}: ${message.text()}`);
      }
    });
    p.on('pageerror', (error) => {
      if (/content security policy|unsafe-eval|EvalError/i.test(`${error.name} ${error.message}`)) {
        violations.push(`${p.url()}: ${error.name}: ${error.message}`);
      }
    });
  };
  context.on('page', watch);
  watch(opened);
  return opened;
}

/** The headers every page answers (the server's platform/page-headers.ts). */
function expectPageHeaders(response: Response | null, options: { credentialInUrl?: boolean } = {}): void {
  expect(response?.status()).toBe(200);
  const headers = response!.headers();
  const policy = headers['content-security-policy'] ?? '';
  expect(policy).toContain("default-src 'self'");
  expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval';");
  expect(policy).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]+';/);
  expect(policy).toContain("object-src 'none'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toContain("'unsafe-eval'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['permissions-policy']).toContain('camera=(self)');
  expect(headers['permissions-policy']).toContain('microphone=(self)');
  if (options.credentialInUrl) expect(headers['x-robots-tag']).toBe('noindex, nofollow');
}

/** No violation so far; the list names them if there are. */
function expectNoViolation(): void {
  expect(violations).toEqual([]);
}

beforeAll(async () => {
  browser = await launchBrowser();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-csp-'));
  const tech = (await apiLogin('tech')).accessToken;
  const doctor = (await apiLogin('doctor')).accessToken;
  const senior = (await apiLogin('senior')).accessToken;
  const admin = (await apiLogin('groupadmin')).accessToken;
  const orgs = await api<{ id: string; code: string }[]>('/yyp/api/v1/groups/demo-renhe/organizations', admin);
  radiologyId = orgs.body.find((o) => o.code === 'RH-RAD')!.id;
  // A study of its own, dated long ago, so no other test's list changes.
  await stowStudy(tech, radiologyId, {
    modality: 'CT',
    patientId: PATIENT_ID,
    patientName: '周^安',
    charset: 'ISO_IR 192',
    studyDate: '20240612',
    studyTime: '101500',
    instancesPerSeries: 3,
    rows: 128,
    columns: 128,
  });
  const found = await api<{ exams: { id: string }[] }>('/yyp/api/v1/exams/page-query', senior, {
    method: 'POST',
    body: JSON.stringify({ filters: [{ field: 'patientId', operator: 'eq', values: [PATIENT_ID] }] }),
  });
  expect(found.body.exams).toHaveLength(1);
  examId = found.body.exams[0]!.id;
  const report = `/yyp/api/v1/reports/${examId}`;
  const image = await api(`${report}/images?desc=${encodeURIComponent('肺窗')}`, doctor, {
    method: 'POST',
    body: png() as unknown as BodyInit,
    headers: { 'content-type': 'image/png' },
  });
  expect(image.status).toBe(201);
  const submitted = await api(`${report}/submit`, doctor, {
    method: 'POST',
    body: JSON.stringify({
      version: 0,
      content: {
        findings: '胸廓对称，双肺纹理清晰，未见实质性病变。',
        conclusion: '胸部CT平扫未见明显异常。',
        positive: false,
        note: '',
        bodyPartCount: 1,
        advice: '',
        extensions: {},
      },
    }),
  });
  expect(submitted.status).toBe(200);
  expect((await api(`${report}/approve`, senior, { method: 'POST', body: '{}' })).status).toBe(200);
  const share = await api<{ url: string }>(`${report}/share`, senior, {
    method: 'POST',
    body: JSON.stringify({ expiresInDays: 1, allowImages: true }),
  });
  expect(share.status).toBe(201);
  shareUrl = share.body.url;
  // The organization prints with a template (another spec may have set it already).
  const template = `/yyp/api/v1/buckets/${radiologyId}/print-template`;
  if ((await api<{ template: { isDefault: boolean } }>(template, admin)).body.template.isDefault) {
    const set = await api(template, admin, {
      method: 'PUT',
      body: JSON.stringify({ hospitalName: '仁和医院', title: 'CT检查报告单', footerHtml: '本报告仅供临床参考' }),
    });
    expect(set.status).toBe(200);
  }
  const issued = await api<{ token: string }>(`/yyp/api/v1/buckets/${radiologyId}/upload/token`, admin, {
    method: 'POST',
  });
  expect(issued.status).toBe(200);
  uploadToken = issued.body.token;
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, page);
});

describe('the Content-Security-Policy breaks no screen', () => {
  it('login and the study list: styled, no violation', async () => {
    page = await watchedPage();
    expectPageHeaders(await page.goto('/login'));
    // Ant Design's styles took (they are <style> elements with the page's nonce).
    const login = page.getByRole('button', { name: /^登\s*录$/ });
    await login.waitFor();
    await expect.poll(() => login.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(22, 100, 255)');
    await submitLogin(page, 'senior', DEMO_PASSWORD);
    await page.waitForURL('**/studies');
    // What `curl -sI /studies` shows, as the browser got it.
    expectPageHeaders(await page.reload());
    await page.getByRole('tab', { name: '全部检查' }).click();
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    expectNoViolation();
  });

  it('the viewer shows the study and measures on it', async () => {
    const token = (await apiLogin('senior')).accessToken;
    const viewerPath = await api<{ url: string }>(`/yyp/api/v1/viewers/${examId}/path`, token, {
      method: 'POST',
      body: JSON.stringify({ reportId: examId }),
    });
    expect(viewerPath.status).toBe(200);
    const viewer = await page!.context().newPage();
    viewer.setDefaultTimeout(20_000);
    expectPageHeaders(await viewer.goto(viewerPath.body.url), { credentialInUrl: true });
    await viewer.getByTestId('instance-0').filter({ hasText: '(1/3)' }).waitFor();
    // The image is drawn (decoded in the image loader's worker, under the same policy).
    await expect
      .poll(() =>
        viewer.evaluate(() => {
          const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="viewport-0"] canvas');
          const data = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
          let lit = 0;
          for (let k = 0; k < data.length; k += 4) if (data[k]! > 10) lit++;
          return lit;
        }),
      )
      .toBeGreaterThan(1000);
    // A length: Cornerstone labels it with a style attribute (style-src-attr).
    const box = (await viewer.getByTestId('viewport-0').boundingBox())!;
    await viewer.getByTestId('tool-Length').click();
    await viewer.mouse.move(box.x + box.width / 2 - 80, box.y + box.height / 2);
    await viewer.mouse.down();
    await viewer.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2, { steps: 6 });
    await viewer.mouse.up();
    await viewer.getByTestId('measurement').filter({ hasText: 'mm' }).waitFor();
    await screenshot(viewer, 'csp-viewer');
    await viewer.close();
    expectNoViolation();
  });

  it('the report editor, its share dialog and the print view', async () => {
    expectPageHeaders(await page!.goto(`/studies/${examId}/reports/${examId}`));
    await expect.poll(() => page!.getByLabel('诊断意见', { exact: true }).inputValue()).toContain('未见明显异常');
    await page!.getByTestId('share-report').click();
    const dialog = page!.getByRole('dialog');
    await dialog.getByText('分享报告').waitFor();
    await screenshot(page!, 'csp-report-share-dialog');
    await page!.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expectNoViolation();

    const printer = await watchedPage({ stubPrint: true });
    page = printer;
    await loginViaUi(printer, 'senior');
    expectPageHeaders(await printer.goto(`/studies/${examId}/reports/${examId}/print`));
    const sheet = printer.locator('.yyp-print-sheet');
    await sheet.waitFor();
    await expect
      .poll(() =>
        sheet
          .locator('.yyp-print-sheet__image img')
          .first()
          .evaluate((el) => (el as HTMLImageElement).naturalWidth),
      )
      .toBe(128);
    await screenshot(printer, 'csp-print-view');
    expectNoViolation();
  });

  it('a share link’s page and the images it opens, for an anonymous visitor', async () => {
    const visitor = await watchedPage();
    page = visitor;
    expectPageHeaders(await visitor.goto(shareUrl), { credentialInUrl: true });
    await visitor.getByTestId('shared-conclusion').waitFor();
    const img = visitor.locator('.yyp-shared-report__image img');
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(128);
    const [images] = await Promise.all([
      visitor.context().waitForEvent('page'),
      visitor.getByRole('button', { name: '查看影像' }).click(),
    ]);
    await images.getByTestId('instance-0').filter({ hasText: '(1/3)' }).waitFor({ timeout: 20_000 });
    await images.close();
    expectNoViolation();
  });

  it('the upload wizard, and an upload through an organization’s link', async () => {
    const tech = await watchedPage();
    page = tech;
    await loginViaUi(tech, 'tech');
    expectPageHeaders(await tech.goto('/upload'));
    await tech.getByTestId('upload-folder-input').waitFor({ state: 'attached' });
    expectNoViolation();

    const outsider = await watchedPage();
    page = outsider;
    const study = generateStudy({ modality: 'DX', rows: 64, columns: 64, patientId: `${PATIENT_ID}-LINK` });
    const [file] = await writeStudy(path.join(workDir, 'link'), study);
    expectPageHeaders(await outsider.goto(`/upload?token=${encodeURIComponent(uploadToken)}`), {
      credentialInUrl: true,
    });
    await outsider.getByRole('heading', { name: '上传检查到放射科' }).waitFor();
    await outsider.getByTestId('upload-files-input').setInputFiles(file!);
    await outsider.getByRole('button', { name: '开始上传' }).click();
    await outsider.getByText('上传完成', { exact: true }).waitFor();
    await screenshot(outsider, 'csp-upload-link-complete');
    expectNoViolation();
  });

  it('refuses a style and an inline handler injected into markup, and the watch sees it', async () => {
    const probe = await watchedPage();
    page = probe;
    await probe.goto('/login');
    await probe.getByRole('button', { name: /^登\s*录$/ }).waitFor();
    await probe.evaluate(() => {
      document.body.insertAdjacentHTML(
        'beforeend',
        '<style id="injected">body { background: rgb(255, 0, 0) !important; }</style><img id="bad" src="data:," onerror="document.title = \'pwned\'">',
      );
    });
    await expect.poll(() => violations.join('\n')).toMatch(/style-src-elem refused inline/);
    await expect.poll(() => violations.join('\n')).toMatch(/script-src-attr refused inline/);
    expect(await probe.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 0, 0)');
    expect(await probe.title()).not.toBe('pwned');
    violations.length = 0;
  });
});
