import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { api, apiLogin, browserPerFile, loginViaUi, PLATFORM_ADMIN_LANDING, screenshot } from './support.js';

/**
 * Issue 27 "global config (key)": the demo admin sets the help address and an announcement on the
 * Global settings tab of /settings/admin; any signed-in user reads them (GET global-configs/query).
 * They are cleared afterwards for the other files.
 */

let page: Page;
browserPerFile((c) => ({ page } = c));

afterAll(async () => {
  const admin = (await apiLogin('admin')).accessToken;
  const res = await api('/yyp/api/v1/global-configs', admin, {
    method: 'PUT',
    body: JSON.stringify({ helpUrl: null, announcement: null }),
  });
  expect(res.status).toBe(200);
});

describe('/settings/admin global settings', () => {
  it('are set by the platform admin and read by a doctor', async () => {
    await loginViaUi(page, 'admin', undefined, PLATFORM_ADMIN_LANDING);
    await page.getByRole('tab', { name: '全局设置' }).click();
    await page.getByLabel('帮助地址').fill('javascript:alert(1)');
    await page
      .getByRole('button', { name: /保\s?存/ })
      .last()
      .click();
    await page.getByText('请输入以 http:// 或 https:// 开头的地址。').waitFor();
    await page.getByLabel('帮助地址').fill('https://help.example.org/yyp');
    await page.getByLabel('公告').fill('本周日 02:00–04:00 系统维护，期间暂停上传。');
    await page
      .getByRole('button', { name: /保\s?存/ })
      .last()
      .click();
    await page.getByText('全局设置已保存').waitFor();
    await screenshot(page, 'settings-admin-global');

    const doctor = (await apiLogin('doctor')).accessToken;
    const read = await api<Record<string, string | null>>(
      '/yyp/api/v1/global-configs/query?keys=helpUrl,announcement,supportPhone',
      doctor,
    );
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      helpUrl: 'https://help.example.org/yyp',
      announcement: '本周日 02:00–04:00 系统维护，期间暂停上传。',
      supportPhone: null,
    });
  });
});
