import crypto from 'node:crypto';
import { entryCanonical } from '@yyp/contracts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_KEY,
  api,
  apiLogin,
  browserPerFile,
  loginViaUi,
  screenshot,
  waitForZhangWeiCts,
} from './support.js';

/**
 * Issue 27 "Done when": the hospital system opens a report through /go without a password prompt.
 * The demo group's admin sets the group's web secret; the hospital system (this test) signs a /go
 * link to last year's CT of 张伟 for the doctor. The senior was signed in in the same browser: /go
 * signs the senior out (the old token stops working), and the doctor lands in the report editor.
 * The link works once: opened again it says so.
 */

let page: Page;
browserPerFile((c) => ({ page } = c));

let secret = '';
let examId = '';

function goLink(username: string, target: string): string {
  const payload = {
    groupId: 'demo-renhe',
    username,
    timestamp: Math.floor(Date.now() / 1000),
    nonce: crypto.randomBytes(16).toString('base64url'),
    target,
  };
  const signature = crypto.createHmac('sha256', secret).update(entryCanonical(payload)).digest('hex');
  const data = Buffer.from(JSON.stringify({ ...payload, signature })).toString('base64url');
  return `/go?data=${data}&source=HIS`;
}

beforeAll(async () => {
  const admin = (await apiLogin('groupadmin')).accessToken;
  const res = await api<{ secret: string }>('/yyp/api/v1/groups/demo-renhe/integration/web-secret', admin, {
    method: 'POST',
  });
  expect(res.status).toBe(200);
  secret = res.body.secret;
  const ct = await waitForZhangWeiCts();
  // The older CT (the report tests write the newer one).
  examId = [...ct].sort((a, b) => a.studyDate.localeCompare(b.studyDate))[0]!.id;
});

describe('/go from the hospital system', () => {
  it("signs the previous user out and opens the doctor's report without a password prompt, once", async () => {
    await loginViaUi(page, 'senior');
    const seniorToken = await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY);
    expect(seniorToken).toBeTruthy();
    const seniorAccess = (JSON.parse(seniorToken!) as { accessToken?: string }).accessToken ?? seniorToken!;

    const editor = `/studies/${examId}/reports/${examId}`;
    const link = goLink('doctor', editor);
    await page.goto(link);
    await page.waitForURL(`**${editor}`);
    await page.getByLabel('影像所见', { exact: true }).waitFor();
    // No password was asked: no login form anywhere.
    expect(await page.getByPlaceholder('密码').count()).toBe(0);
    // Signed in as the doctor now, by single sign-on; the senior's session ended on the server.
    const stored = await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY);
    expect(stored).toContain('"username":"doctor"');
    expect(stored).toContain('"loginType":"sso"');
    expect((await api('/yyp/api/v1/accounts/me', seniorAccess)).status).toBe(401);
    await expect.poll(() => page.locator('.yyp-report__name').textContent()).toMatch(/^张/);
    await screenshot(page, 'go-report-editor');

    // The same link a second time: used.
    await page.goto(link);
    await page.getByText('登录链接已使用过').waitFor();
    await screenshot(page, 'go-link-used');
  });
});
