import { describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  browserPerFile,
  loginViaUi,
  screenshot,
  settle,
  waitForZhangWeiCts,
  type BrowserPage,
} from './support.js';

interface Role {
  id: string;
  name: string;
  actions: string[];
}

/**
 * The demo's roles order no reads yet: the radiology's admin gives its approving doctors
 * (审核医生, held by 王主任 'senior') apply_expert_report, as a hospital would before ordering.
 */
async function letSeniorOrderReads(): Promise<void> {
  const admin = (await apiLogin('groupadmin')).accessToken;
  const exam = await api<{ bucketId: string }>(
    `/yyp/api/v1/exams/${(await waitForZhangWeiCts())[0]!.id}`,
    (await apiLogin('senior')).accessToken,
  );
  const roles = await api<Role[]>(`/yyp/api/v1/buckets/${exam.body.bucketId}/roles`, admin);
  const approving = roles.body.find((r) => r.name === '审核医生');
  if (!approving) throw new Error(`no approving role: ${JSON.stringify(roles.body)}`);
  if (approving.actions.includes('apply_expert_report')) return;
  const updated = await api(`/yyp/api/v1/roles/${approving.id}`, admin, {
    method: 'PUT',
    body: JSON.stringify({ name: approving.name, actions: [...approving.actions, 'apply_expert_report'] }),
  });
  expect(updated.status).toBe(200);
}

/**
 * Issue 24's main path on the demo: the hospital's admin orders an expert read of 张伟's CT from
 * the exam menu, picks the teleradiology centre's CT read, applies, and pays by WeChat: the
 * simulator's scan page "scans" the QR, the payment notification settles the order, and the pay
 * page (polling every 2 s) shows it paid. Screenshots of each page in e2e/screenshots/.
 */
describe('billing: apply for an expert read and pay with the simulator', () => {
  let t = {} as BrowserPage;
  browserPerFile((current) => (t = current));

  it('applies from the exam menu, shows the QR, is paid by the scan page and says so', async () => {
    const [exam] = await waitForZhangWeiCts();
    await letSeniorOrderReads();
    await loginViaUi(t.page, 'senior');
    await t.page.getByTestId(`more-${exam!.id}`).click();
    await t.page.getByRole('menuitem', { name: '申请专家报告' }).click();
    await t.page.waitForURL(`**/exams/${exam!.id}/apply-report?type=expert`);

    await t.page.getByText('CT 专家阅片').click();
    await t.page.getByLabel('申请原因').fill('胸部 CT 结节，请专家会诊');
    await t.page.getByLabel('申请人手机').fill('13800000000');
    await screenshot(t.page, 'billing-apply');
    await t.page.getByTestId('apply-submit').click();

    await t.page.waitForURL(`**/exams/${exam!.id}/apply-report/**`);
    const qr = t.page.getByTestId('payment-qr');
    await qr.waitFor();
    expect(await qr.getAttribute('data-code-url')).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(await t.page.getByText('¥200.00').count()).toBeGreaterThan(0);
    await screenshot(t.page, 'billing-pay-qr');

    const scanUrl = await t.page.getByTestId('sim-scan-link').getAttribute('href');
    expect(scanUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sim\/scan\?code_url=/);
    const scanPage = await t.context.newPage();
    await scanPage.goto(scanUrl!);
    await screenshot(scanPage, 'billing-sim-scan');
    await scanPage.getByTestId('sim-pay').click();
    await scanPage.close();

    await t.page.getByTestId('payment-paid').waitFor({ timeout: 20_000 });
    await settle(t.page);
    await screenshot(t.page, 'billing-paid');

    await t.page.goto('/orders');
    // the radiology's placed orders (the list opens on an organization where the caller orders)
    const organization = t.page.getByLabel('机构');
    await organization.click();
    await t.page.getByTitle('放射科').click();
    await t.page.getByText('已支付').first().waitFor();
    await screenshot(t.page, 'billing-orders');
  }, 120_000);

  it('a payment link opens the public /charge page in a browser with nobody signed in, and pays there', async () => {
    const [, exam] = await waitForZhangWeiCts();
    await letSeniorOrderReads();
    await loginViaUi(t.page, 'senior');
    await t.page.goto(`/exams/${exam!.id}/apply-report?type=expert`);
    await t.page.getByText('CT 专家阅片').click();
    await t.page.getByLabel('申请人手机').fill('13800000000');
    await t.page.getByTestId('apply-submit').click();
    await t.page.waitForURL(`**/exams/${exam!.id}/apply-report/**`);
    await t.page.getByRole('button', { name: '生成支付链接（在其他设备支付）' }).click();
    const link = await t.page.getByTestId('payment-link').inputValue();
    expect(link).toMatch(/\/charge\/[^?]+\?token=/);

    const phone = await t.browser.newContext({ viewport: { width: 414, height: 860 }, locale: 'zh-CN' });
    const payer = await phone.newPage();
    await payer.goto(link);
    await payer.getByTestId('payment-qr').waitFor();
    // the token left the address bar for this tab's session storage
    expect(new URL(payer.url()).search).toBe('');
    await screenshot(payer, 'billing-charge-public');
    const scanUrl = await payer.getByTestId('sim-scan-link').getAttribute('href');
    const scan = await phone.newPage();
    await scan.goto(scanUrl!);
    await scan.getByTestId('sim-pay').click();
    await payer.getByTestId('payment-paid').waitFor({ timeout: 20_000 });
    await settle(payer);
    await screenshot(payer, 'billing-charge-paid');
    await phone.close();
  }, 120_000);
});
