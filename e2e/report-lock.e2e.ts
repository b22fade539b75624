import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  examIdsOfPatient,
  launchBrowser,
  screenshot,
  shotIfFailed,
  signedInPage,
  stowStudy,
} from './support.js';

/**
 * Opening is not locking (issue 20 item 5): the doctor opens a report and leaves, and the server
 * holds no lock and no new trace step for it; the doctor opens it again and types, which takes the
 * lock (the senior who opens it meanwhile reads it and is told who holds it at the first key), and
 * leaving gives the lock back. Closing the tab gives it back too.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let doctor: Page | undefined;
let senior: Page | undefined;
let examId = '';
let doctorToken = '';

interface LockAnswer {
  status: string;
  lock: { lockedBy: { name: string }; mine: boolean } | null;
}

const reportUrl = () => `/yyp/api/v1/reports/${examId}`;
const editorPath = () => `/studies/${examId}/reports/${examId}`;
const findings = (p: Page) => p.getByLabel('影像所见', { exact: true });
const detail = async () => (await api<LockAnswer>(`${reportUrl()}/detail`, doctorToken)).body;
const traceSteps = async () =>
  (await api<{ traces: { action: string }[] }>(`${reportUrl()}/report-trace`, doctorToken)).body.traces.map(
    (s) => s.action,
  );

const signedIn = (username: string) => signedInPage(browser, contexts, username);

/** The editor is open on the report with its text shown. */
async function openEditor(p: Page): Promise<void> {
  await p.goto(editorPath());
  await findings(p).waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
  const tech = (await apiLogin('tech')).accessToken;
  doctorToken = (await apiLogin('doctor')).accessToken;
  const bucketId = (await api<{ id: string }[]>('/yyp/api/v1/buckets/uploadable', tech)).body[0]!.id;
  await stowStudy(tech, bucketId, {
    patientId: 'E2E-LOCK-1',
    patientName: '周^安',
    charset: 'ISO_IR 192',
    patientSex: 'F',
    studyDate: '20250412',
    studyTime: '090000',
    modality: 'CT',
    bodyPartExamined: 'CHEST',
    instancesPerSeries: 1,
    rows: 64,
    columns: 64,
  });
  const found = await examIdsOfPatient(doctorToken, 'E2E-LOCK-1');
  expect(found).toHaveLength(1);
  examId = found[0]!;
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, doctor, 'doctor');
  await shotIfFailed(task, senior, 'senior');
});

describe('report lock', () => {
  it('opening a report and leaving leaves no lock and no trace', async () => {
    doctor = await signedIn('doctor');
    const stepsBefore = await traceSteps();
    await openEditor(doctor);
    // Reading: the text may be typed into (the first key takes the lock), and an Edit button offers it.
    await doctor.getByTestId('start-editing').waitFor();
    await expect.poll(() => doctor!.locator('.yyp-report__name').textContent()).toBe('周安');
    expect(await findings(doctor).evaluate((el) => (el as HTMLTextAreaElement).readOnly)).toBe(false);
    await screenshot(doctor, 'report-lock-reading');
    // Opened for a while (a heartbeat's worth), nothing held.
    await doctor.waitForTimeout(1500);
    expect(await detail()).toMatchObject({ status: 'none', lock: null });

    await doctor.getByRole('link', { name: '返回检查列表' }).click();
    await doctor.waitForURL('**/studies');
    expect(await detail()).toMatchObject({ status: 'none', lock: null });
    expect(await traceSteps()).toEqual(stepsBefore);
  });

  it('the first key takes the lock, another reader is told who holds it, leaving gives it back', async () => {
    doctor ??= await signedIn('doctor');
    await openEditor(doctor);
    await findings(doctor).click();
    await doctor.keyboard.type('双肺纹理清晰。');
    await expect.poll(async () => (await detail()).lock?.mine ?? false, { timeout: 15_000 }).toBe(true);
    await expect.poll(() => doctor!.getByTestId('start-editing').count()).toBe(0);
    expect(await traceSteps()).toEqual([]);

    // The senior opens it meanwhile: it reads, and the first key names the holder.
    senior = await signedIn('senior');
    await openEditor(senior);
    await senior.getByText('报告已被 李医生 锁定').first().waitFor();
    await findings(senior).click();
    await senior.keyboard.type('x');
    await senior.locator('.ant-message').getByText('报告已被 李医生 锁定').waitFor();
    expect(await findings(senior).inputValue()).toBe('');
    await screenshot(senior, 'report-lock-held-by-other');

    // The doctor saves (a step of the trail) and leaves: the lock goes with the editor.
    await doctor.keyboard.press('Control+s');
    await expect.poll(() => doctor!.getByTestId('save-state').textContent()).toMatch(/已于 \d\d:\d\d:\d\d 保存/);
    await screenshot(doctor, 'report-lock-editing');
    await doctor.getByRole('link', { name: '返回检查列表' }).click();
    await doctor.waitForURL('**/studies');
    await expect.poll(async () => (await detail()).lock, { timeout: 10_000 }).toBeNull();
    expect(await traceSteps()).toEqual(['save']);
  });

  it('closing the tab while editing gives the lock back', async () => {
    const page = await signedIn('doctor');
    await openEditor(page);
    await findings(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type('心影不大。');
    await expect.poll(async () => (await detail()).lock?.mine ?? false, { timeout: 15_000 }).toBe(true);
    await page.close({ runBeforeUnload: false });
    await expect.poll(async () => (await detail()).lock, { timeout: 10_000 }).toBeNull();
    expect(await traceSteps()).toEqual(['save']);
  });
});
