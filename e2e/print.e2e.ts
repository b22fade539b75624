import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, baseUrl, launchBrowser, openPage, screenshot, shotIfFailed, signIn } from './support.js';
import { encodePng } from './support-png.js';

/**
 * Printing a report (issue 8): the organization admin sets the print template (hospital name,
 * logo, stamp, footer); the doctor submits Li Ming's MR with Chinese, English and Tibetan text and
 * a key image; the senior approves and prints from the editor, which opens the print view and
 * prints it; a reprint from the print view is recorded.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let senior: Page | undefined;
let examId = '';
let bucketId = '';

interface ExamPage {
  exams: { id: string; patientName: string; modality: string; bucketId: string }[];
}

/** An RGBA PNG painted by `paint`. */
function png(width: number, height: number, paint: (x: number, y: number) => number[]): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(paint(x, y), y * (width * 4 + 1) + 1 + x * 4);
  }
  return encodePng(width, height, 6, raw);
}
const logo = () =>
  png(128, 128, (x, y) => (Math.abs(x - 64) < 14 || Math.abs(y - 64) < 14 ? [255, 255, 255, 255] : [20, 90, 170, 255]));
const stamp = () =>
  png(120, 120, (x, y) => {
    const d = Math.hypot(x - 60, y - 60);
    return d > 46 && d < 56 ? [200, 20, 20, 230] : [0, 0, 0, 0];
  });
const slice = () =>
  png(256, 192, (x, y) => {
    const v = Math.hypot((x - 128) / 100, (y - 96) / 80) < 1 ? 190 - Math.round(Math.hypot(x - 128, y - 96) / 2) : 10;
    return [v, v, v, 255];
  });

/** An upload of the caller's through policies/images. */
async function upload(token: string, bytes: Buffer): Promise<string> {
  const policy = await api<{ key: string; upload: { url: string; headers: Record<string, string> } }>(
    `/yyp/api/v1/policies/images?contentType=image/png&size=${bytes.length}`,
    token,
  );
  expect(policy.status).toBe(200);
  const put = await fetch(new URL(policy.body.upload.url, baseUrl()), {
    method: 'PUT',
    headers: policy.body.upload.headers,
    body: bytes as unknown as BodyInit,
  });
  expect(put.ok).toBe(true);
  return policy.body.key;
}

async function waitForExam(token: string): Promise<{ id: string; bucketId: string }> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const res = await api<ExamPage>('/yyp/api/v1/exams/page-query', token, {
      method: 'POST',
      body: JSON.stringify({ filters: [], limit: 50 }),
    });
    const exam = res.body.exams.find((e) => e.patientName.startsWith('Li') && e.modality === 'MR');
    if (exam) return exam;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the demo study of Li Ming did not appear within 90 s');
}

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = (await apiLogin('groupadmin')).accessToken;
  const doctor = (await apiLogin('doctor')).accessToken;
  const exam = await waitForExam((await apiLogin('senior')).accessToken);
  examId = exam.id;
  bucketId = exam.bucketId;
  const template = await api(`/yyp/api/v1/buckets/${bucketId}/print-template`, admin, {
    method: 'PUT',
    body: JSON.stringify({
      hospitalName: '仁和医院',
      title: '磁共振检查报告单',
      logoKey: await upload(admin, logo()),
      stampKey: await upload(admin, stamp()),
      footerHtml: '<p>地址：拉萨市健康路1号　电话：0891-0000000</p>本报告仅供临床参考，不作诊断证明。',
      imageColumns: 2,
    }),
  });
  expect(template.status).toBe(200);
  const report = `/yyp/api/v1/reports/${examId}`;
  for (const desc of ['T2WI 轴位', 'FLAIR']) {
    const image = await api(`${report}/images?desc=${encodeURIComponent(desc)}`, doctor, {
      method: 'POST',
      body: slice() as unknown as BodyInit,
      headers: { 'content-type': 'image/png' },
    });
    expect(image.status).toBe(201);
  }
  const submitted = await api(`${report}/submit`, doctor, {
    method: 'POST',
    body: JSON.stringify({
      version: 0,
      content: {
        findings:
          '脑实质信号均匀，灰白质分界清晰，脑室系统未见扩大，中线结构居中。\nNo abnormal signal or enhancement.\nཀླད་པའི་གནས་ཚུལ་རྒྱུན་ལྡན་ཡིན།',
        conclusion: '头颅MR平扫未见明显异常。',
        positive: false,
        note: '',
        bodyPartCount: 1,
        advice: '',
        extensions: {},
      },
    }),
  });
  expect(submitted.status).toBe(200);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, senior, 'senior');
});

describe('printing a report', () => {
  it('approve-and-print in the editor opens the print view and prints it', async () => {
    const opened = await openPage(browser);
    contexts.push(opened.context);
    senior = opened.page;
    // Count the browser's print calls instead of opening its dialog.
    await senior.addInitScript(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await signIn(senior, 'senior', `/studies/${examId}/reports/${examId}`);
    await senior.locator('.yyp-report__actions [data-action="approveAndPrint"]').click();
    await senior.waitForURL(`**/studies/${examId}/reports/${examId}/print?auto=1&recorded=1`);
    const sheet = senior.locator('.yyp-print-sheet');
    await sheet.waitFor();
    expect(await sheet.locator('.yyp-print-sheet__hospital').textContent()).toBe('仁和医院');
    expect(await sheet.textContent()).toContain('头颅MR平扫未见明显异常');
    expect(await sheet.locator('.yyp-print-sheet__image img').count()).toBe(2);
    await expect
      .poll(() =>
        sheet
          .locator('.yyp-print-sheet__image img')
          .first()
          .evaluate((el) => (el as HTMLImageElement).naturalWidth),
      )
      .toBe(256);
    await expect.poll(() => senior!.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await screenshot(senior, 'print-view', { fullPage: true });

    const token = (await apiLogin('senior')).accessToken;
    const detail = await api<{ status: string; printApprovedAt: string | null }>(
      `/yyp/api/v1/reports/${examId}/detail`,
      token,
    );
    expect(detail.body.status).toBe('printed');
    expect(detail.body.printApprovedAt).not.toBeNull();
  });

  it('a reprint from the print view is recorded in the trail', async () => {
    await senior!.getByTestId('print-button').click();
    await expect.poll(() => senior!.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(2);
    const token = (await apiLogin('senior')).accessToken;
    await expect
      .poll(async () => {
        const trail = await api<{ traces: { action: string }[] }>(`/yyp/api/v1/reports/${examId}/report-trace`, token);
        return trail.body.traces.map((s) => s.action).slice(-2);
      })
      .toEqual(['approveAndPrint', 'print']);
  });

  it('the organization admin sees the print template in the settings', async () => {
    const opened = await openPage(browser);
    contexts.push(opened.context);
    const admin = opened.page;
    await signIn(admin, 'groupadmin', `/groups/demo-renhe/organizations/${bucketId}?tab=settings`);
    const card = admin.getByTestId('print-template-card');
    await card.waitFor();
    await expect.poll(() => card.getByLabel('医院名称').inputValue()).toBe('仁和医院');
    await card.getByTestId('print-template-logo').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(admin, 'print-template-settings');
  });
});
