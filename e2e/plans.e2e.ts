import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, apiLogin, browserPerFile, screenshot, signIn } from './support.js';

/**
 * Organization plans (spec 000 §5): the demo's private organization 体检中心 (RH-PE) shows its
 * plan to its members; once its quota is used up the overview says why uploads are refused.
 */

let page: Page;
browserPerFile((c) => ({ page } = c));

describe('organization plan', () => {
  it('shows the plan of a private organization and why its uploads stop when the quota is used up', async () => {
    const groupadmin = await apiLogin('groupadmin');
    const orgs = await api<{ id: string; code: string }[]>(
      '/yyp/api/v1/groups/demo-renhe/organizations',
      groupadmin.accessToken,
    );
    const checkup = orgs.body.find((o) => o.code === 'RH-PE');
    expect(checkup).toBeDefined();
    const overview = `/groups/demo-renhe/organizations/${checkup!.id}?tab=overview`;

    await signIn(page, 'groupadmin', overview);
    await page.getByText('周期订阅').waitFor();
    await page.getByText(/已用 \d+ \/ 共 1000/).waitFor();
    await screenshot(page, 'org-plan');

    // The platform operator sets a quota that is already used: uploads stop, and the page says so.
    const admin = await apiLogin('admin');
    const plan = await api<{ used: number }>(`/yyp/api/v1/buckets/${checkup!.id}/plan`, groupadmin.accessToken);
    const set = await api(`/yyp/api/v1/buckets/${checkup!.id}/plan`, admin.accessToken, {
      method: 'PUT',
      body: JSON.stringify({ kind: 'oneTime', quota: plan.body.used, expiresAt: null }),
    });
    expect(set.status).toBe(200);
    await page.reload();
    await page.getByText('该机构的套餐额度已用完，续订后才能继续上传').waitFor();
    await screenshot(page, 'org-plan-full');

    // Renewed: back to a year of 1,000 studies (other tests use the demo).
    const renewed = await api(`/yyp/api/v1/buckets/${checkup!.id}/plan`, admin.accessToken, {
      method: 'PUT',
      body: JSON.stringify({
        kind: 'period',
        quota: 1000,
        expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      }),
    });
    expect(renewed.status).toBe(200);
  });
});
