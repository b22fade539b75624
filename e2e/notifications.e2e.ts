import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateStudy, writeStudy } from '../packages/server/src/dicom/testdata/generate.js';
import {
  apiLogin,
  baseUrl,
  failedShotPath,
  launchBrowser,
  loginViaUi,
  openPage,
  screenshot,
  signIn,
} from './support.js';

/**
 * New-upload notifications in the browser: 放射科 names senior (审核医生) to be notified of uploads
 * through its public link; senior is signed in while an outside uploader sends a study with the
 * link, and senior's bell shows it at the next poll, with a toast.
 */

let browser: Browser;
let workDir: string;
const contexts: BrowserContext[] = [];
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-notify-'));
});

afterAll(async () => {
  await browser?.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

afterEach(async ({ task }) => {
  if ((task.result?.errors?.length ?? 0) > 0) {
    await page?.screenshot({ path: failedShotPath(task.name) }).catch(() => undefined);
  }
  for (const context of contexts.splice(0)) {
    await context.close();
  }
});

async function api<T>(urlPath: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl()}/yyp/api/v1/${urlPath}`, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.headers ?? {}),
    },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

describe('new-upload notifications', () => {
  it('shows the notified member a toast and the bell entry after an upload through the link', async () => {
    // 放射科's admin names senior and issues an upload link.
    const admin = (await apiLogin('groupadmin')).accessToken;
    const orgs = await api<{ id: string; code: string }[]>('groups/demo-renhe/organizations', admin);
    const radId = orgs.body.find((o) => o.code === 'RH-RAD')!.id;
    const members = await api<{ accountId: string; username: string }[]>(`buckets/${radId}/members`, admin);
    const senior = members.body.find((m) => m.username === 'senior')!.accountId;
    const saved = await api(`buckets/${radId}`, admin, {
      method: 'PUT',
      body: JSON.stringify({ notifications: { uploadNotifyAccountIds: [senior] } }),
    });
    expect(saved.status).toBe(200);
    const issued = await api<{ token: string }>(`buckets/${radId}/upload/token`, admin, { method: 'POST' });
    expect(issued.status).toBe(200);

    // senior is at work, with nothing new.
    const seniorSide = await openPage(browser);
    contexts.push(seniorSide.context);
    page = seniorSide.page;
    await loginViaUi(page, 'senior');
    await page.getByRole('button', { name: '通知', exact: true }).waitFor();

    // Someone outside sends a study with the link.
    const study = generateStudy({
      modality: 'CT',
      instancesPerSeries: 2,
      rows: 64,
      columns: 64,
      patientName: '赵^通知',
      charset: 'GB18030',
      patientId: `E2E-NOTIFY-${Date.now().toString(36)}`,
      studyDate: '20261121',
      studyTime: '093000',
      bodyPartExamined: 'HEAD',
    });
    const files = await writeStudy(path.join(workDir, 'study'), study);
    const uploader = await openPage(browser);
    contexts.push(uploader.context);
    await uploader.page.goto(`/upload?token=${encodeURIComponent(issued.body.token)}`);
    await uploader.page.getByTestId('upload-files-input').setInputFiles(files);
    await uploader.page.getByRole('button', { name: '开始上传' }).click();
    await uploader.page.getByText('上传完成', { exact: true }).waitFor();

    // At the next poll (30 s) senior's bell counts it and a toast names the patient.
    const bell = page.getByRole('button', { name: '通知，1 条未读' });
    await bell.waitFor({ timeout: 40_000 });
    const toast = page.locator('.yyp-notification-toast');
    await toast.getByText('新检查已上传').waitFor();
    await toast.getByText('赵通知').waitFor();
    expect(await toast.innerText()).toContain('CT · HEAD');
    expect(await toast.innerText()).toContain('放射科 · 2026-11-21 09:30');
    await screenshot(page, 'notifications-toast');

    // The bell lists it with the organization and exam time.
    await bell.click();
    const panel = page.getByRole('dialog', { name: '通知' });
    const entry = panel.getByRole('button', { name: /赵通知/ });
    await entry.waitFor();
    expect(await entry.innerText()).toContain('CT · HEAD');
    expect(await entry.innerText()).toContain('放射科 · 2026-11-21 09:30');
    await screenshot(page, 'notifications-bell');

    // Opening it marks it read and leads to the study list.
    await page.goto('/groups');
    await page.getByRole('button', { name: '通知，1 条未读' }).click();
    await page
      .getByRole('dialog', { name: '通知' })
      .getByRole('button', { name: /赵通知/ })
      .click();
    await page.waitForURL('**/studies');
    await page.getByRole('button', { name: '通知', exact: true }).waitFor();

    // groupadmin was not named: nothing for them.
    const theirs = await api<{ items: unknown[]; unread: number }>('notifications', admin);
    expect(theirs.body).toEqual({ items: [], unread: 0 });

    // Where the admin names them, the settings say what they get.
    const adminSide = await openPage(browser);
    contexts.push(adminSide.context);
    page = adminSide.page;
    await signIn(page, 'groupadmin', `/groups/demo-renhe/organizations/${radId}?tab=settings`);
    const card = page.locator('.ant-card').filter({ hasText: '上传令牌' });
    await card.getByText('通过上传链接每上传一个新检查，所选成员（最多 2 名）都会在顶部栏的铃铛中收到通知。').waitFor();
    await card.getByText('王主任 (senior)').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'notifications-org-setting');
  }, 120_000);
});
