import type { DomainConfig } from '@yyp/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  apiLogin,
  baseUrl,
  browserPerFile,
  loginViaUi,
  openPage,
  PLATFORM_ADMIN_LANDING,
  screenshot,
  signIn,
} from './support.js';
import { startSmsSimulator } from '../packages/server/src/sim/sms/simulator.js';

// Issue 27 "Platform admin": the demo admin sets the site's branding, the strong-password policy
// and a 15-minute inactivity limit on /settings/admin; a new login page shows the branding and
// the server applies the policies. The configuration is put back afterwards for the other files.

let page: Page;
let browser: Browser;
browserPerFile((c) => ({ page, browser } = c));

let original: DomainConfig;
let adminToken: string;

beforeAll(async () => {
  adminToken = (await apiLogin('admin')).accessToken;
  original = (await api<DomainConfig>('/yyp/api/v1/domain', adminToken)).body;
});

afterAll(async () => {
  const { id: _id, ...fields } = original;
  const res = await api('/yyp/api/v1/domain', adminToken, { method: 'PUT', body: JSON.stringify(fields) });
  expect(res.status).toBe(200);
});

describe('/settings/admin', () => {
  it('sets branding, strong passwords and a 15-minute inactivity limit, and they take effect', async () => {
    await loginViaUi(page, 'admin', undefined, PLATFORM_ADMIN_LANDING);
    // The admin, in no organization, lands here (and finds it in the navbar and the settings menu).
    await page.getByRole('heading', { name: '平台管理' }).waitFor();
    await page.getByLabel('站点名称').fill('仁和影像云');
    await page.getByLabel('公司', { exact: true }).fill('仁和医疗集团');
    await page
      .getByLabel('登录页页脚（HTML）')
      .fill(
        '© 2026 仁和医疗集团 · <a href="https://beian.miit.gov.cn/">京ICP备20260001号</a><script>alert(1)</script>',
      );
    await page.getByLabel('页脚预览').getByRole('link', { name: '京ICP备20260001号' }).waitFor();
    await page.getByLabel('要求强密码').click();
    await page.getByLabel('无操作自动退出').fill('15');
    await page.getByRole('button', { name: /保\s?存/ }).click();
    await page.getByText('站点配置已保存').waitFor();
    await screenshot(page, 'settings-admin');

    const stored = (await api<DomainConfig>('/yyp/api/v1/domain', adminToken)).body;
    expect(stored).toMatchObject({ displayName: '仁和影像云', requireStrongPwd: true, maxInactiveMinutes: 15 });
    expect(stored.footerHtml).not.toContain('script');

    // The policy holds on the server: a password without upper case and a symbol is refused.
    const weak = await fetch(`${baseUrl()}/yyp/api/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'e2e-weak', name: '弱密码', password: 'kestrel2026' }),
    });
    expect(weak.status).toBe(400);
    expect(((await weak.json()) as { code: string }).code).toBe('PasswordTooSimple');

    // A new visitor's login page shows the new branding at once.
    const visitor = await openPage(browser);
    try {
      await visitor.page.goto('/login');
      await visitor.page.getByText('仁和影像云').first().waitFor();
      const filing = visitor.page.getByRole('link', { name: '京ICP备20260001号' });
      await filing.waitFor();
      expect(await filing.getAttribute('href')).toBe('https://beian.miit.gov.cn/');
      await screenshot(visitor.page, 'login-branded');
    } finally {
      await visitor.context.close();
    }
  });

  it('lists the groups and the platform operation log', async () => {
    await signIn(page, 'admin', '/settings/admin');
    await page.getByRole('tab', { name: '集团' }).click();
    await page.getByRole('cell', { name: 'demo-renhe' }).waitFor();
    await screenshot(page, 'settings-admin-groups');
    await page.getByRole('tab', { name: '操作日志' }).click();
    await page.getByText('domain.update').first().waitFor();
    await screenshot(page, 'settings-admin-log');
  });
  it('shows the SMS service in effect and sends a test message that reaches the number', async () => {
    await signIn(page, 'admin', '/settings/admin');
    await page.getByRole('tab', { name: '短信' }).click();
    await page.getByText('本地模拟器').waitFor();
    await page.getByText('【yyp】').waitFor();
    const phone = '13700137042';
    await page.getByLabel('测试号码').fill(phone);
    await page.getByRole('button', { name: /发送测试短信/ }).click();
    await page.getByText(`测试短信已发送至 ${phone}。`).waitFor();
    await screenshot(page, 'settings-admin-sms');
    const inbox = (await (await fetch(`${inject('smsInbox')}/inbox.json?phone=${phone}`)).json()) as unknown[];
    expect(inbox).toHaveLength(1);
  });

  it('puts an SMS account of the platform’s own in place of the environment’s, then goes back to it', async () => {
    // The hospital's own Alibaba Cloud account: a second simulator of the same API, with its key.
    const own = await startSmsSimulator({
      accessKeyId: 'LTAI5tRenheHospital1',
      accessKeySecret: 'renhe-e2e-secret-7Qp2',
      signName: '仁和医院',
      templates: { SMS_465001001: '您的重置密码验证码为${code}', SMS_465001002: '您的绑定验证码为${code}' },
    });
    try {
      await signIn(page, 'admin', '/settings/admin');
      await page.getByRole('tab', { name: '短信' }).click();
      await page.getByText('服务器环境变量', { exact: true }).waitFor();
      await page.getByRole('button', { name: /使用平台自有账号/ }).click();
      const dialog = page.getByRole('dialog', { name: '平台短信账号' });
      await dialog.getByLabel('AccessKey 编号').fill('LTAI5tRenheHospital1');
      await dialog.getByLabel('AccessKey 密钥').fill('renhe-e2e-secret-7Qp2');
      await dialog.getByLabel('短信签名').fill('仁和医院');
      await dialog.getByLabel('模板：重置密码').fill('SMS_465001001');
      await dialog.getByLabel('模板：绑定手机').fill('SMS_465001002');
      await dialog.getByLabel('服务地址').fill(own.url);
      await screenshot(page, 'settings-admin-sms-account');
      await dialog.getByRole('button', { name: /保\s*存/ }).click();
      await page.getByText('短信设置已保存，立即生效。').waitFor();
      await page.getByText('【仁和医院】').waitFor();
      await page.getByText(/^本页设置（/).waitFor();
      const phone = '13700137043';
      await page.getByLabel('测试号码').fill(phone);
      await page.getByRole('button', { name: /发送测试短信/ }).click();
      await page.getByText(`测试短信已发送至 ${phone}。`).waitFor();
      expect(own.messages(phone)).toEqual([
        expect.objectContaining({ signName: '仁和医院', templateCode: 'SMS_465001002' }),
      ]);
      await screenshot(page, 'settings-admin-sms-own');
      await page.getByRole('button', { name: /恢复服务器环境配置/ }).click();
      await page
        .getByRole('tooltip')
        .getByRole('button', { name: /恢复服务器环境配置/ })
        .click();
      await page.getByText('本地模拟器').waitFor();
      await page.getByText('服务器环境变量', { exact: true }).waitFor();
    } finally {
      await api('/yyp/api/v1/admin/sms', adminToken, { method: 'DELETE' });
      await own.close();
    }
  });
});
