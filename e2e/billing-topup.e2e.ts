import { formatMoney, type OwnCharges } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  browserPerFile,
  payOnSimulator,
  screenshot,
  settle,
  signIn,
  step,
  type BrowserPage,
} from './support.js';

const V1 = '/yyp/api/v1';
const GROUP = 'demo-renhe';

interface GroupCredit {
  amountFen: number;
}

/**
 * Issue 24's WeChat top-up on the demo: 仁和医院's group admin (groupadmin) opens /settings/billing,
 * tops up ¥100.00 by WeChat Pay, the simulator's scan page pays the QR, WeChat's notification
 * settles it and the balance on the page rises by ¥100.00; "My payments" lists the paid top-up.
 * A top-up only raises the demo's balance (billing.e2e pays from it; nothing asserts its amount).
 */
describe('billing: a group admin tops up the group balance by WeChat', () => {
  let t = {} as BrowserPage;
  browserPerFile((current) => (t = current));

  it('tops up ¥100 through the simulator and sees the balance rise', async () => {
    const admin = (await apiLogin('groupadmin')).accessToken;
    const balance = async () => (await api<GroupCredit>(`${V1}/credits/group-credit?groupId=${GROUP}`, admin)).body;
    const before = (await balance()).amountFen;

    step('sign in and open the billing settings');
    await signIn(t.page, 'groupadmin', '/settings/billing');
    const shown = t.page.locator(`.yyp-money[data-fen="${before}"]`).first();
    await shown.waitFor();
    await t.page.getByTestId('weixin-top-up').click();
    const dialog = t.page.getByRole('dialog', { name: '微信充值到集团余额' });
    await dialog.getByLabel('充值金额（元）').fill('100');
    await screenshot(t.page, 'billing-topup-amount');
    await dialog.getByRole('button', { name: '去支付' }).click();

    const qr = t.page.getByTestId('payment-qr');
    await qr.waitFor();
    expect(await qr.getAttribute('data-code-url')).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(await t.page.getByText('¥100.00').count()).toBeGreaterThan(0);
    await screenshot(t.page, 'billing-topup-qr');

    const scanUrl = await t.page.getByTestId('sim-scan-link').getAttribute('href');
    expect(scanUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sim\/scan\?code_url=/);
    step('pay on the simulator');
    await payOnSimulator(t.browser, scanUrl!);

    step('wait for the paid status and its toast');
    await t.page.getByTestId('payment-paid').waitFor({ timeout: 20_000 });
    await t.page.getByText('充值成功，余额已更新').waitFor();
    await screenshot(t.page, 'billing-topup-paid');
    await t.page.keyboard.press('Escape');
    await settle(t.page);

    step('read the new balance');
    const after = before + 10_000;
    expect((await balance()).amountFen).toBe(after);
    await t.page.locator(`.yyp-money[data-fen="${after}"]`).first().waitFor();
    expect(await t.page.getByText(formatMoney(after, 'CNY')).count()).toBeGreaterThan(0);
    const mine = await api<OwnCharges>(`${V1}/charge/request?limit=5`, admin);
    expect(mine.body.data[0]).toMatchObject({ purpose: 'topup', amountFen: 10_000, status: 'paid', groupId: GROUP });
    step('find the top-up in my payments and the toast gone');
    await t.page.getByTestId('my-charges').getByText('余额充值').first().waitFor();
    // the success toast has gone (3 s)
    await t.page.getByText('充值成功，余额已更新').waitFor({ state: 'hidden' });
    await screenshot(t.page, 'billing-topup-balance', { fullPage: true });
  }, 120_000);
});
