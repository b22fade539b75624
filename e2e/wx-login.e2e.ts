import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_KEY, browserPerFile, screenshot } from './support.js';

/**
 * Issue 27 / spec 001 "Sign in ... by WeChat": on /login one click on 微信登录 leads to WeChat's
 * QR-code page (the server's loopback simulator of WeChat, YYP_WX_LOGIN=sim in globalSetup), where a
 * simulated WeChat user scans and confirms. The first time the WeChat is linked to the demo account
 * `doctor` by its password; the second time it signs in straight away.
 */

let page: Page;
browserPerFile((c) => ({ page } = c));

async function scanAs(nickname: string, shot?: string) {
  await page.goto('/login');
  const button = page.getByRole('button', { name: '使用微信登录' });
  await button.waitFor();
  if (shot) await screenshot(page, `${shot}-login-page`);
  await button.click();
  await page.waitForURL('**/connect/qrconnect?**');
  const confirm = page.getByRole('button', { name: `以${nickname}扫码确认` });
  await confirm.waitFor();
  if (shot) await screenshot(page, `${shot}-qrconnect`);
  await confirm.click();
  await page.waitForURL('**/loginCallback?source=wx**');
}

const stored = () => page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY);

describe('WeChat website login', () => {
  it('links a WeChat to the demo doctor by its password, then signs in', async () => {
    await scanAs('张医生', 'wx');
    await page.getByText('将微信绑定到账号').waitFor();
    // The WeChat avatar loads: the pages' img-src allows where it is (here the simulator).
    const avatar = page.locator('.ant-avatar img').first();
    await expect
      .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await page.getByLabel('用户名').fill('doctor');
    await page.getByLabel('密码').fill('Yyp@2026');
    await screenshot(page, 'wx-bind-card');
    await page.getByRole('button', { name: '绑定并登录' }).click();
    await page.waitForURL('**/studies');
    const token = await stored();
    expect(token).toContain('"username":"doctor"');
    expect(token).toContain('"loginType":"normal"');
    await page.getByText('李医生').first().waitFor();
    await screenshot(page, 'wx-signed-in');
  });

  it('signs the linked WeChat in straight away the second time, and shows it in the settings', async () => {
    await page.goto('/login');
    await page.evaluate(() => localStorage.clear());
    await scanAs('张医生');
    await page.waitForURL('**/studies');
    expect(await stored()).toContain('"username":"doctor"');
    await page.goto('/settings/mobile');
    await page.getByText('已于').first().waitFor();
    await page.getByText('张医生').first().waitFor();
    await screenshot(page, 'wx-settings');
  });
});
