import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateStudy } from '../packages/server/src/dicom/testdata/generate.js';
import { apiLogin, baseUrl, failedShotPath, launchBrowser, screenshot, signIn } from './support.js';

/**
 * Upload codes in the browser: a doctor signs on a phone-sized page opened from Settings →
 * Signature and sees the signature on the desktop page; an outside sender uploads a PDF to an
 * exam through /attachments/upload?code.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
let workDir: string;

beforeAll(async () => {
  browser = await launchBrowser();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-codes-'));
});

afterAll(async () => {
  await browser?.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

let current: Page | undefined;
afterEach(async ({ task }) => {
  if ((task.result?.errors?.length ?? 0) > 0 && current) {
    await current.screenshot({ path: failedShotPath(task.name) }).catch(() => undefined);
  }
  for (const c of contexts.splice(0)) {
    await c.close();
  }
});

async function newPage(viewport: { width: number; height: number }, mobile = false): Promise<Page> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport,
    locale: 'zh-CN',
    ...(mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  current = page;
  return page;
}

async function api<T>(urlPath: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl()}/yyp/api/v1/${urlPath}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Stores one generated study in 放射科 through the tus upload and answers its exam id. */
async function uploadExam(patientName: string): Promise<string> {
  const tech = await apiLogin('tech');
  const orgs = await api<{ id: string; name: string }[]>('buckets/uploadable', tech.accessToken);
  const rad = orgs.body.find((o) => o.name === '放射科')!;
  const session = await api<{ sessionToken: string; endpoint: string }>(
    `buckets/${rad.id}/studies/upload`,
    tech.accessToken,
    { method: 'POST', body: '{}' },
  );
  const study = generateStudy({ modality: 'DX', rows: 32, columns: 32, patientName, charset: 'GB18030' });
  const bytes = study.instances[0]!.bytes;
  const endpoint = new URL(session.body.endpoint, baseUrl()).toString();
  const created = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(bytes.length),
      'upload-metadata': `filename ${Buffer.from('a.dcm').toString('base64')}`,
      'upload-session': session.body.sessionToken,
    },
  });
  expect(created.status).toBe(201);
  const location = new URL(created.headers.get('location')!, endpoint).toString();
  const patched = await fetch(location, {
    method: 'PATCH',
    headers: {
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
      'upload-session': session.body.sessionToken,
    },
    body: Buffer.from(bytes),
  });
  expect(patched.status).toBe(204);
  const summary = await api<{ examIds: string[] }>('exams/post-upload', tech.accessToken, {
    method: 'POST',
    body: JSON.stringify({ sessionToken: session.body.sessionToken }),
  });
  expect(summary.body.examIds).toHaveLength(1);
  return summary.body.examIds[0]!;
}

describe('signature on a phone', () => {
  it('draws a signature on /mobileSignature and shows it on Settings → Signature', async () => {
    const desktop = await newPage({ width: 1366, height: 820 });
    await signIn(desktop, 'doctor', '/settings/signature');
    await desktop.getByRole('heading', { name: '签名' }).waitFor();
    await desktop.getByText('尚未设置签名。').waitFor();
    await desktop.getByRole('button', { name: '手机签名' }).click();
    const link = await desktop.getByTestId('signature-link').innerText();
    expect(link).toContain('/mobileSignature?code=');
    await desktop.locator('.ant-qrcode canvas').waitFor();
    await screenshot(desktop, 'signature-settings-qr');

    const phone = await newPage({ width: 390, height: 780 }, true);
    await phone.goto(new URL(link).pathname + new URL(link).search);
    await phone.getByRole('heading', { name: '请在此签名' }).waitFor();
    expect(await phone.getByRole('navigation').count()).toBe(0);
    // Saving an empty pad says what to do.
    await phone.getByRole('button', { name: '保存签名' }).click();
    await phone.getByText('请先书写签名。').waitFor();
    const pad = phone.getByTestId('signature-pad');
    const box = (await pad.boundingBox())!;
    const stroke = async (points: [number, number][]) => {
      await phone.mouse.move(box.x + points[0]![0], box.y + points[0]![1]);
      await phone.mouse.down();
      for (const [x, y] of points.slice(1)) {
        await phone.mouse.move(box.x + x, box.y + y, { steps: 4 });
      }
      await phone.mouse.up();
    };
    await stroke([
      [40, 160],
      [80, 60],
      [120, 170],
      [160, 70],
      [200, 160],
    ]);
    await stroke([
      [60, 200],
      [300, 190],
    ]);
    // Undo takes back the last stroke; draw it again.
    await phone.getByRole('button', { name: '撤销' }).click();
    await stroke([
      [230, 80],
      [260, 180],
      [320, 90],
    ]);
    await screenshot(phone, 'signature-phone-drawn');
    await phone.getByRole('button', { name: '保存签名' }).click();
    await phone.getByText('签名已保存，可以关闭此页面。').waitFor();
    await screenshot(phone, 'signature-phone-done');

    // The desktop page polls and shows the new signature.
    const image = desktop.locator('img[alt="签名"]');
    await image.waitFor({ timeout: 20_000 });
    await desktop.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img[alt="签名"]');
      return img !== null && img.complete;
    });
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await screenshot(desktop, 'signature-settings-done');

    // The code is spent: opening the link again and saving says so.
    await phone.goto(new URL(link).pathname + new URL(link).search);
    await phone.getByRole('heading', { name: '请在此签名' }).waitFor();
    await stroke([
      [40, 100],
      [200, 120],
    ]);
    await phone.getByRole('button', { name: '保存签名' }).click();
    await phone.getByText('链接已被使用，请向发送者索取新链接。').waitFor();
  });
});

describe('attachments by code', () => {
  it('uploads a PDF through /attachments/upload?code with a masked patient name', async () => {
    const examId = await uploadExam('王小东');
    const doctor = await apiLogin('doctor');
    const issued = await api<{ url: string }>(`exams/${examId}/attachment-code`, doctor.accessToken, {
      method: 'POST',
      body: JSON.stringify({ kind: 'attachment' }),
    });
    expect(issued.status).toBe(200);
    const pdf = path.join(workDir, '检查申请单.pdf');
    fs.writeFileSync(pdf, '%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
    const exe = path.join(workDir, 'tool.exe');
    fs.writeFileSync(exe, 'MZ');

    const page = await newPage({ width: 390, height: 780 }, true);
    await page.goto(issued.body.url);
    await page.getByRole('heading', { name: '上传附件' }).waitFor();
    await page.getByText('王*东').waitFor();
    expect(await page.getByText('王小东').count()).toBe(0);
    expect(await page.getByRole('navigation').count()).toBe(0);
    await screenshot(page, 'attachments-code-page', { fullPage: true });

    const input = page.locator('input[type=file]');
    await input.setInputFiles(exe);
    await page.getByText('tool.exe 的文件类型不被接受。').waitFor();
    await input.setInputFiles(pdf);
    await page.getByText('检查申请单.pdf').first().waitFor();
    await page.getByRole('button', { name: '上传' }).click();
    await page.getByText('检查申请单.pdf 已上传').waitFor();
    await page.getByTestId('code-upload-item').filter({ hasText: '检查申请单.pdf' }).waitFor();
    await page.getByText('还可上传 5 个文件。').waitFor();
    await screenshot(page, 'attachments-code-uploaded', { fullPage: true });

    const list = await api<{ attachments: { fileName: string; url: string }[] }>(
      `exams/${examId}/attachments`,
      doctor.accessToken,
    );
    expect(list.body.attachments.map((a) => a.fileName)).toEqual(['检查申请单.pdf']);
    const file = await fetch(`${baseUrl()}${list.body.attachments[0]!.url}`);
    expect((await file.text()).startsWith('%PDF-1.4')).toBe(true);
  });

  it('says clearly that a wrong code is not valid', async () => {
    const page = await newPage({ width: 390, height: 780 }, true);
    await page.goto('/attachments/upload?code=this-code-was-never-issued-0000');
    await page.getByText('链接无效，请向发送者索取新链接。').waitFor();
    await screenshot(page, 'attachments-code-invalid');
  });
});
