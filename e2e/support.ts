import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { generateStudy, type StudyOptions } from '../packages/server/src/dicom/testdata/generate.js';

/** Shared helpers for the e2e specs: browser, pages, sign-in and screenshots. */

export const DEMO_PASSWORD = 'Yyp@2026';
export const ACCESS_TOKEN_KEY = 'yyp.accessToken';

export function baseUrl(): string {
  return inject('baseUrl');
}

import { failedShotPath, launchBrowser, screenshot, type LaunchOptions } from './support-browser.js';
export {
  chromiumPath,
  failedShotPath,
  launchBrowser,
  screenshot,
  settle,
  type LaunchOptions,
} from './support-browser.js';

/**
 * A fresh context per test: empty local storage, so every test starts signed out in chs. The context
 * asks for reduced motion, which the app honours (no Ant Design transitions, no chart animation):
 * no step waits for a dialog or menu to finish moving, and a click never lands on one mid-flight.
 */
export async function openPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 1366, height: 820 },
    locale: 'zh-CN',
    reducedMotion: 'reduce',
  });
  // every page of the context (a second tab too) waits at most 15 s for one step
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

export interface BrowserPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * The usual hooks of a spec file: one browser for the file, a fresh page (openPage) before each
 * test, a screenshot of it when the test fails, and its context closed after. `use` receives the
 * browser, context and page each time they change; `reopen` gives the test a new signed-out page.
 */
export function browserPerFile(
  use: (current: BrowserPage) => void,
  launch: LaunchOptions = {},
): { reopen(): Promise<void> } {
  const current = {} as BrowserPage;
  const open = async () => {
    Object.assign(current, await openPage(current.browser));
    use({ ...current });
  };
  beforeAll(async () => {
    current.browser = await launchBrowser(launch);
  });
  afterAll(async () => {
    await current.browser?.close();
  });
  beforeEach(open);
  afterEach(async ({ task }) => {
    await shotIfFailed(task, current.page);
    await current.context?.close();
  });
  return {
    async reopen() {
      await current.context.close();
      await open();
    },
  };
}

/** The signed-in accounts whose language a test changed (the choice is stored on the account). */
const languageChangedBy = new Map<string, string>();

/**
 * Pick a language from the language menu (the button is labelled in the current language). A signed-in
 * account keeps the choice on the server: it is put back to chs after the test (resetLanguages), so a
 * test that fails half-way does not leave the next ones in another language.
 */
export async function chooseLanguage(page: Page, currentLabel: string, language: string): Promise<void> {
  const session = await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY);
  const { username, accessToken } = JSON.parse(session ?? '{}') as { username?: string; accessToken?: string };
  if (username && accessToken) languageChangedBy.set(username, accessToken);
  await page.getByRole('button', { name: currentLabel }).click();
  await page.getByRole('menuitem', { name: language }).click();
  await page.getByRole('menuitem', { name: language }).waitFor({ state: 'hidden' });
}

/** Puts the language of every account a test switched back to chs (run after each test). */
export async function resetLanguages(): Promise<void> {
  const changed = [...languageChangedBy.values()];
  languageChangedBy.clear();
  for (const token of changed) {
    await api('/yyp/api/v1/accounts/me', token, {
      method: 'PATCH',
      body: JSON.stringify({ preferences: { language: 'chs' } }),
    }).catch(() => undefined);
  }
}

/** Fill the login form (default language chs) and press Enter. */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByPlaceholder('密码').press('Enter');
}

/** A call to the server with a bearer token; a string body is sent as JSON. */
export async function api<T>(
  urlPath: string,
  token: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl()}${urlPath}`, {
    signal: AbortSignal.timeout(30_000),
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
      ...(init.headers ?? {}),
    },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Signs in through the login page and waits for the landing: the study list, or the platform admin's page. */
export async function loginViaUi(
  page: Page,
  username: string,
  password = DEMO_PASSWORD,
  landing = '**/studies',
): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, username, password);
  await page.waitForURL(landing);
}

/**
 * Signs in without the login form, as a returning user would be: the token of an API sign-in is put
 * where the login page keeps it (local storage, ACCESS_TOKEN_KEY), then the page opens `path`. One
 * page load instead of three (login page, landing, the page the test wants): about 2 s a sign-in.
 * The login form itself is exercised by loginViaUi (auth, sso, entries and binding specs).
 */
export async function signIn(page: Page, username: string, path = '/studies', password = DEMO_PASSWORD): Promise<void> {
  const token = await apiLogin(username, password);
  const session = JSON.stringify({
    username,
    loginType: token.loginType,
    accessToken: token.accessToken,
    expires: token.expires,
  });
  // a small document of the app's origin, so that its local storage can be written
  await page.goto('/yyp/api/v1/health');
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [ACCESS_TOKEN_KEY, session] as const);
  await page.goto(path);
}

/** Where the demo platform admin (in no organization) lands after signing in. */
export const PLATFORM_ADMIN_LANDING = '**/settings/admin';

export interface TokenInfo {
  accessToken: string;
  expires: number;
  loginType: 'normal' | 'sso';
}

export async function apiLogin(username: string, password = DEMO_PASSWORD): Promise<TokenInfo> {
  const res = await fetch(`${baseUrl()}/yyp/api/v1/accounts/login-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) {
    throw new Error(`login of ${username} failed: ${res.status} ${await res.text()}`);
  }
  return (await res.json()) as TokenInfo;
}

/** Register an account through the API (the demo domain allows registration). */
export async function apiRegister(username: string, name: string, password: string): Promise<TokenInfo> {
  const res = await fetch(`${baseUrl()}/yyp/api/v1/accounts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, name, password }),
  });
  if (!res.ok) {
    throw new Error(`registration of ${username} failed: ${res.status} ${await res.text()}`);
  }
  return (await res.json()) as TokenInfo;
}

export function jwtPayload(token: string): Record<string, unknown> {
  const part = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Today as a DICOM date (YYYYMMDD) in this machine's time zone, as the server's "today" tab counts. */
export function todayDicom(): string {
  const d = new Date();
  return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

/** Sends DICOM files by STOW-RS into an organization, as a modality or gateway would. */
export async function stowInstances(token: string, bucketId: string, files: readonly Uint8Array[]): Promise<void> {
  const boundary = `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const body = Buffer.concat([
    ...files.flatMap((bytes) => [
      Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`),
      Buffer.from(bytes),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  const res = await fetch(`${baseUrl()}/dicom-web/studies?bucketId=${bucketId}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}`,
    },
    body,
  });
  if (res.status !== 200) throw new Error(`STOW-RS answered ${res.status}: ${await res.text()}`);
}

/** Generates a study with the project's own generator and sends it by STOW-RS. */
export function stowStudy(token: string, bucketId: string, options: StudyOptions): Promise<void> {
  return stowInstances(
    token,
    bucketId,
    generateStudy(options).instances.map((i) => i.bytes),
  );
}

/** A fresh page (see openPage) signed in (signIn) on the study list; its context joins `contexts` to be closed. */
export async function signedInPage(
  browser: Browser,
  contexts: BrowserContext[],
  username: string,
  password = DEMO_PASSWORD,
): Promise<Page> {
  const { context, page } = await openPage(browser);
  contexts.push(context);
  await signIn(page, username, '/studies', password);
  return page;
}

/** The ids of the exams of one patient ID that `token` may see (the study list's query). */
export async function examIdsOfPatient(token: string, patientId: string): Promise<string[]> {
  const found = await api<{ exams: { id: string }[] }>('/yyp/api/v1/exams/page-query', token, {
    method: 'POST',
    body: JSON.stringify({ filters: [{ field: 'patientId', operator: 'eq', values: [patientId] }] }),
  });
  return found.body.exams.map((e) => e.id);
}

/** The viewer's path for an exam, as the study list asks for it. */
export async function viewerPath(token: string, examId: string): Promise<string> {
  return (await api<{ url: string }>(`/yyp/api/v1/viewers/${examId}/path`, token, { method: 'POST', body: '{}' })).body
    .url;
}

/** After a failed test: a screenshot of `page` (named by the test, and `who` when several pages take part). */
let lastStep = '';

/** Name the step a long test is at; a failure prints the last one named (CI keeps only the output). */
export function step(label: string): void {
  lastStep = label;
}

export async function shotIfFailed(
  task: { name: string; result?: { errors?: unknown[] } },
  page: Page | undefined,
  who = '',
): Promise<void> {
  const at = lastStep;
  lastStep = '';
  if ((task.result?.errors?.length ?? 0) === 0) return;
  await page?.screenshot({ path: failedShotPath(who ? `${task.name}-${who}` : task.name) }).catch(() => undefined);
  // CI keeps only the printed output: say where the page stood when the test failed
  const text = await page
    ?.evaluate(() => {
      const flat = (el: Element) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
      const overlays = [...document.querySelectorAll('.ant-modal-wrap, .ant-drawer, .ant-message, .ant-notification')]
        .map(flat)
        .filter(Boolean);
      return `${flat(document.body).slice(0, 600)}${overlays.length ? ` | overlays: ${overlays.join(' / ').slice(0, 400)}` : ''}`;
    })
    .catch(() => '(page closed)');
  const where = at ? ` after step "${at}"` : '';
  console.log(`failed "${task.name}"${who ? ` (${who})` : ''}${where} at ${page?.url() ?? '(no page)'}: ${text ?? ''}`);
}

/** A scheduled exam as the desk's list answers it (the fields the front-desk specs read). */
export interface DeskItem {
  id: string;
  status: string;
  accessionNumber: string;
  studyInstanceUid: string;
  scheduledDate: string;
  examId: string | null;
  patient: { name: string; patientId: string };
}

/** The first scheduled exam the desk's search finds (POST buckets/:id/registry/query). */
export async function deskItem(token: string, bucketId: string, q: string): Promise<DeskItem | undefined> {
  const found = await api<{ items: DeskItem[] }>(`/yyp/api/v1/buckets/${bucketId}/registry/query`, token, {
    method: 'POST',
    body: JSON.stringify({ q }),
  });
  return found.body.items[0];
}

/** The technician stores a small CT study with the scheduled exam's keys, as the modality the worklist gave them to. */
export async function stowScheduledStudy(bucketId: string, scheduled: DeskItem, studyDate: string): Promise<void> {
  const tech = await apiLogin('tech');
  await stowStudy(tech.accessToken, bucketId, {
    modality: 'CT',
    instancesPerSeries: 1,
    rows: 32,
    columns: 32,
    patientName: scheduled.patient.name,
    charset: 'ISO_IR 192',
    patientId: scheduled.patient.patientId,
    accessionNumber: scheduled.accessionNumber,
    studyInstanceUid: scheduled.studyInstanceUid,
    studyDate,
  });
}

/** An exam of the study list as the e2e specs read it. */
export interface ListedExam {
  id: string;
  patientName: string;
  modality: string;
  studyDate: string;
  hasImage: boolean;
}

/**
 * Both CTs of 张伟 (this year's and last year's), once stored: the demo generates its studies in the
 * background at first start, 刘洋's ultrasound after them (when it is listed, both CTs are complete).
 */
export async function waitForZhangWeiCts(): Promise<ListedExam[]> {
  const token = (await apiLogin('senior')).accessToken;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const res = await api<{ exams: ListedExam[] }>('/yyp/api/v1/exams/page-query', token, {
      method: 'POST',
      body: JSON.stringify({ filters: [], limit: 50 }),
    });
    const ct = res.body.exams.filter((e) => e.patientName === '张伟' && e.modality === 'CT');
    if (ct.length === 2 && res.body.exams.some((e) => e.patientName === '刘洋')) return ct;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('demo studies did not appear within 90 s');
}

/**
 * The payer's phone: the simulator's scan page opened in a context of its own (another device, not
 * a tab of the signed-in desk), paid, and closed once the simulator says paid.
 */
export async function payOnSimulator(browser: Browser, scanUrl: string, shotName?: string): Promise<void> {
  const phone = await openPage(browser);
  try {
    await phone.page.goto(scanUrl);
    if (shotName) await screenshot(phone.page, shotName);
    await phone.page.getByTestId('sim-pay').click();
    await phone.page.getByTestId('sim-paid').waitFor();
  } finally {
    await phone.context.close();
  }
}
