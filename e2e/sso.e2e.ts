import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type OidcTestProvider } from '../packages/server/src/test/oidc-provider.js';
import { ACCESS_TOKEN_KEY, api, apiLogin, baseUrl, browserPerFile, screenshot } from './support.js';

/**
 * Issue 27 "Done when": a hospital whose staff sign in with their own OIDC server logs in with one
 * click. The hospital's server is a real oidc-provider on 127.0.0.1 (its development login and consent
 * screens); the demo group's admin configures it as the group's provider (accounts created on first
 * sign-in). On /login one click on "使用仁和医院登录" leads to the provider's login screen; after it the
 * user lands on the study list, signed in by single sign-on.
 */

let page: Page;
browserPerFile((c) => ({ page } = c));

let op: OidcTestProvider;
let adminToken = '';
const GROUP = 'demo-renhe';

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        clientId: 'yyp-e2e',
        clientSecret: 'e2e-oidc-client-secret-0123456789',
        redirectUris: [`${baseUrl()}/loginCallback`],
      },
    ],
  });
  op.users.set('li.na', { preferred_username: 'li.na', name: '李娜' });
  adminToken = (await apiLogin('groupadmin')).accessToken;
  const res = await api(`/yyp/api/v1/groups/${GROUP}/sso`, adminToken, {
    method: 'PUT',
    body: JSON.stringify({
      label: '仁和医院',
      issuer: op.issuer,
      clientId: 'yyp-e2e',
      clientSecret: 'e2e-oidc-client-secret-0123456789',
      scopes: 'openid profile',
      allowCreate: true,
      enabled: true,
    }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});

afterAll(async () => {
  // Other spec files see the plain login page again.
  if (adminToken) await api(`/yyp/api/v1/groups/${GROUP}/sso`, adminToken, { method: 'DELETE' });
  await op?.close();
});

describe('single sign-on with the hospital’s OpenID Connect server', () => {
  it('signs a member of staff in with one click on the login page', async () => {
    await page.goto('/login');
    const button = page.getByRole('button', { name: '使用仁和医院登录' });
    await button.waitFor();
    await screenshot(page, 'sso-login-page');
    await button.click();

    // The provider's own login screen (its development interaction), then its consent screen.
    await page.waitForURL(`${op.issuer}/**`);
    await page.locator('input[name="login"]').fill('li.na');
    await page.locator('input[name="password"]').fill('hospital-password');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]', { hasText: 'Continue' }).click();

    await page.waitForURL('**/studies');
    const stored = await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY);
    expect(stored).toContain('"loginType":"sso"');
    expect(stored).toContain('"username":"li_na"');
    await page.getByText('李娜').first().waitFor();
    await screenshot(page, 'sso-signed-in');
  });
});
