import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, launchBrowser, openPage, screenshot, shotIfFailed, signIn } from './support.js';
import { encodePng } from './support-png.js';

/**
 * Sharing an approved report (issue 8): the doctor writes 王芳's chest radiograph with a key image
 * and the senior approves it (through the API); the senior shares it from the report editor; an
 * anonymous visitor in a fresh browser opens the link and reads the report; after a recall the
 * same link says the report was withdrawn and shows no text.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let senior: Page | undefined;
let visitor: Page | undefined;
let examId = '';
let link = '';

interface ExamPage {
  exams: { id: string; patientName: string; modality: string }[];
}

/** A 256×256 grayscale PNG that looks like a film: a bright oval on black. */
function filmPng(): Buffer {
  const size = 256;
  const raw = Buffer.alloc((size + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const d = Math.hypot((x - 128) / 90, (y - 128) / 110);
      raw[y * (size + 1) + 1 + x] = Math.max(0, Math.min(255, Math.round(230 * (1 - d * d) + 20)));
    }
  }
  return encodePng(size, size, 0, raw);
}

async function waitForExam(token: string): Promise<string> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const res = await api<ExamPage>('/yyp/api/v1/exams/page-query', token, {
      method: 'POST',
      body: JSON.stringify({ filters: [], limit: 50 }),
    });
    const exam = res.body.exams.find((e) => e.patientName === '王芳' && e.modality === 'DX');
    if (exam) return exam.id;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the demo study of 王芳 did not appear within 90 s');
}

beforeAll(async () => {
  browser = await launchBrowser();
  const doctor = (await apiLogin('doctor')).accessToken;
  const seniorToken = (await apiLogin('senior')).accessToken;
  examId = await waitForExam(seniorToken);
  const report = `/yyp/api/v1/reports/${examId}`;
  const image = await api(`${report}/images?desc=${encodeURIComponent('右下肺野')}`, doctor, {
    method: 'POST',
    body: filmPng() as unknown as BodyInit,
    headers: { 'content-type': 'image/png' },
  });
  expect(image.status).toBe(201);
  const submitted = await api<{ status: string }>(`${report}/submit`, doctor, {
    method: 'POST',
    body: JSON.stringify({
      version: 0,
      content: {
        findings:
          '胸廓对称，气管居中。双肺纹理清晰，右下肺野见小片状模糊影，边界不清。心影大小形态正常。双侧膈面光整，肋膈角锐利。',
        conclusion: '右下肺野小片状模糊影，考虑炎症，建议治疗后复查。',
        positive: true,
        note: '',
        bodyPartCount: 1,
        advice: '',
        extensions: {},
      },
    }),
  });
  expect(submitted.status).toBe(200);
  const approved = await api<{ status: string }>(`${report}/approve`, seniorToken, { method: 'POST', body: '{}' });
  expect(approved.body.status).toBe('corrected');
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, senior, 'senior');
  await shotIfFailed(task, visitor, 'visitor');
});

describe('sharing a report', () => {
  it('the senior shares the approved report from the editor', async () => {
    const opened = await openPage(browser);
    contexts.push(opened.context);
    senior = opened.page;
    await signIn(senior, 'senior', `/studies/${examId}/reports/${examId}`);
    await senior.getByTestId('share-report').click();
    const dialog = senior.getByRole('dialog');
    await dialog.getByText('分享报告').waitFor();
    await dialog.getByTestId('share-create').click();
    const url = dialog.getByTestId('share-url');
    await url.waitFor();
    link = await url.inputValue();
    expect(link).toMatch(/\/reports\/s\?link=[A-Za-z0-9_-]{32}$/);
    // The new link is listed as active, never with its id.
    await expect.poll(() => dialog.getByText('有效', { exact: true }).count()).toBe(1);
    await screenshot(senior, 'share-dialog');
  });

  it('an anonymous visitor opens the link and reads the report', async () => {
    const opened = await openPage(browser);
    contexts.push(opened.context);
    visitor = opened.page;
    const answers: { status: number; headers: Record<string, string> }[] = [];
    visitor.on('response', (res) => {
      if (res.url().includes('/yyp/api/v1/share/report')) {
        answers.push({ status: res.status(), headers: res.headers() });
      }
    });
    const requests: Record<string, string>[] = [];
    visitor.on('request', (req) => {
      if (req.url().includes('/yyp/api/v1/')) {
        requests.push(req.headers());
      }
    });
    await visitor.goto(link);
    await visitor.getByTestId('shared-conclusion').waitFor();
    expect(await visitor.getByTestId('shared-conclusion').textContent()).toContain('考虑炎症');
    expect(await visitor.getByText('王*').count()).toBeGreaterThan(0);
    expect(await visitor.getByText('审核医生').count()).toBe(1);
    // The key image loads.
    const img = visitor.locator('.yyp-shared-report__image img');
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(256);
    expect(answers[0]).toMatchObject({ status: 200 });
    expect(answers[0]!.headers['referrer-policy']).toBe('no-referrer');
    expect(answers[0]!.headers['x-robots-tag']).toContain('noindex');
    expect(requests.every((h) => h.authorization === undefined)).toBe(true);
    await screenshot(visitor, 'share-visitor', { fullPage: true });
  });

  it('says the report was withdrawn after a recall, without its text', async () => {
    const token = (await apiLogin('senior')).accessToken;
    const recalled = await api<{ status: string }>(`/yyp/api/v1/reports/${examId}/recall`, token, {
      method: 'POST',
      body: JSON.stringify({ reason: '补充病史' }),
    });
    expect(recalled.body.status).toBe('cancelled');
    await visitor!.reload();
    await visitor!.getByTestId('shared-withdrawn').waitFor();
    expect(await visitor!.getByTestId('shared-conclusion').count()).toBe(0);
    await screenshot(visitor!, 'share-withdrawn');
  });

  it('after correction the same link shows the new version; the senior publishes it and finds it in the publish list', async () => {
    const doctor = (await apiLogin('doctor')).accessToken;
    const seniorToken = (await apiLogin('senior')).accessToken;
    const report = `/yyp/api/v1/reports/${examId}`;
    const detail = await api<{ version: number; content: Record<string, unknown> }>(`${report}/detail`, doctor);
    const corrected = { ...detail.body.content, conclusion: '右下肺野小片状模糊影，考虑肺炎，建议抗炎治疗后复查。' };
    expect(
      (
        await api(`${report}/submit`, doctor, {
          method: 'POST',
          body: JSON.stringify({ version: detail.body.version, content: corrected }),
        })
      ).status,
    ).toBe(200);
    expect((await api(`${report}/approve`, seniorToken, { method: 'POST', body: '{}' })).status).toBe(200);
    await visitor!.reload();
    await visitor!.getByTestId('shared-updated').waitFor();
    expect(await visitor!.getByTestId('shared-conclusion').textContent()).toContain('考虑肺炎');
    await screenshot(visitor!, 'share-updated');

    // The demo's approving doctors (审核医生) publish: the role holds order_report_publish (issue 20 item 4).
    await senior!.goto(`/studies/${examId}/reports/${examId}`);
    await senior!.getByTestId('share-report').click();
    const dialog = senior!.getByRole('dialog');
    await dialog.getByTestId('share-publish').click();
    await dialog.getByTestId('share-url').waitFor();
    await senior!.goto('/report-publish');
    await senior!.getByText('王芳').first().waitFor();
    await screenshot(senior!, 'share-publish-list');
  });
});
