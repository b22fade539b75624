import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { loginViaUi, PLATFORM_ADMIN_LANDING, screenshot, browserPerFile } from './support.js';

/**
 * Issue 19 §8 in the browser: a stranger's DICOM association is refused, and the platform admin
 * reads the refusal on its screen; the demo hospital's auditor reads the refusal of its own
 * modality (wrong called AE title) from the operation log, and not the stranger's.
 */
const run = promisify(execFile);
let page: Page;
browserPerFile((c) => ({ page } = c));

/** echoscu against the server's DICOM port; the association is expected to be refused. */
async function refusedEcho(callingAe: string, calledAe: string): Promise<void> {
  const port = String(inject('dicomPort'));
  await expect(run('echoscu', ['-aet', callingAe, '-aec', calledAe, '127.0.0.1', port])).rejects.toThrow();
}

beforeAll(async () => {
  await refusedEcho('STRANGER', 'YYP');
  await refusedEcho('DEMO_MODALITY', 'WRONG_AE');
});

describe('refused DICOM associations', () => {
  it("shows the platform admin the stranger's refused association", async () => {
    await loginViaUi(page, 'admin', undefined, PLATFORM_ADMIN_LANDING);
    await page.getByRole('navigation').getByRole('link', { name: 'DICOM 拒绝记录' }).click();
    await page.waitForURL('**/dicom-refusals');
    await page.getByRole('heading', { name: '被拒绝的 DICOM 连接' }).waitFor();
    const stranger = page.getByRole('row').filter({ hasText: 'STRANGER' });
    await stranger.waitFor();
    await expect(stranger.getByText('主叫 AE 名称未登记').count()).resolves.toBe(1);
    await expect(stranger.getByText('127.0.0.1').count()).resolves.toBe(1);
    await expect(stranger.getByText('拒绝', { exact: true }).count()).resolves.toBe(1);
    const ours = page.getByRole('row').filter({ hasText: 'DEMO_MODALITY' });
    await expect(ours.getByText('WRONG_AE').count()).resolves.toBe(1);
    await expect(ours.getByText('被叫 AE 名称不是本服务器的').count()).resolves.toBe(1);
    await screenshot(page, 'dicom-refusals-admin');

    // The AE-title filter keeps only the stranger's.
    await page.getByLabel('AE 名称').fill('strang');
    await page.getByRole('button', { name: /查\s?询/ }).click();
    await page.getByRole('row').filter({ hasText: 'DEMO_MODALITY' }).waitFor({ state: 'detached' });
    await expect(page.getByRole('row').filter({ hasText: 'STRANGER' }).count()).resolves.toBe(1);
  });

  it("shows the hospital's auditor the refusal of its own modality, from the operation log", async () => {
    await loginViaUi(page, 'auditor');
    await page.getByRole('navigation').getByRole('link', { name: '操作日志' }).click();
    await page.getByRole('button', { name: '被拒绝的 DICOM 连接' }).click();
    await page.waitForURL('**/dicom-refusals?groupId=*');
    const ours = page.getByRole('row').filter({ hasText: 'DEMO_MODALITY' });
    await ours.waitFor();
    await expect(ours.getByText('WRONG_AE').count()).resolves.toBe(1);
    await expect(ours.getByText('放射科').count()).resolves.toBe(1);
    await expect(page.getByRole('row').filter({ hasText: 'STRANGER' }).count()).resolves.toBe(0);
    // Not in the auditor's navigation: only the platform admin has the entry.
    await expect(page.getByRole('navigation').getByRole('link', { name: 'DICOM 拒绝记录' }).count()).resolves.toBe(0);
    await screenshot(page, 'dicom-refusals-auditor');
  });
});
