import { formatMoney, type EarningsPage, type InvoicesPage } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { browserPerFile, loginViaUi, screenshot, settle, type BrowserPage } from './support.js';

/**
 * Issue 24's settings side at the teleradiology centre (XH-TELE): `expert` (who holds issue_invoice
 * and payment_refund there) opens /settings/billing and sees the centre's earnings for this month
 * (the figures the server summed from the ledger) and the invoices it is to issue. Whatever ran
 * before (billing.e2e pays, refunds and invoices an order; alone, nothing is paid yet), the page must
 * show what the server answered. Nothing is changed: an applied invoice's 开具 dialog is opened, its
 * irreversible warning read, and cancelled.
 */
describe('billing: the expert organization’s earnings and invoices', () => {
  let t = {} as BrowserPage;
  browserPerFile((current) => (t = current));

  it('shows the earnings summed by the server and the invoices to issue', async () => {
    await loginViaUi(t.page, 'expert');
    const earningsAnswer = t.page.waitForResponse((r) => r.url().includes('/earnings/page-query'), { timeout: 30_000 });
    const invoicesAnswer = t.page.waitForResponse((r) => r.url().includes('/invoices/page-query'), { timeout: 30_000 });
    await t.page.goto('/settings/billing');
    const earnings = (await (await earningsAnswer).json()) as EarningsPage;
    const invoices = (await (await invoicesAnswer).json()) as InvoicesPage;

    const earningsCard = t.page.locator('.ant-card').filter({ hasText: '收入结算' });
    await expect.poll(() => earningsCard.isVisible(), { timeout: 15_000 }).toBe(true);
    await earningsCard.getByText('按账本汇总').waitFor();
    for (const total of earnings.totals) {
      // The totals row: orders, gross, refunds, credits and net as the server summed them.
      const row = earningsCard
        .locator('tr')
        .filter({ hasText: '合计' })
        .filter({ hasText: total.currency === 'CNY' ? '¥' : '$' });
      await expect
        .poll(() => row.textContent(), { timeout: 10_000 })
        .toContain(formatMoney(total.netFen, total.currency));
      expect(await row.textContent()).toContain(formatMoney(total.grossFen, total.currency));
    }
    expect(await earningsCard.locator('tbody tr').count()).toBeGreaterThan(0);

    const invoicesCard = t.page.locator('.ant-card').filter({ hasText: '发票列表' });
    await invoicesCard.waitFor();
    expect(await invoicesCard.getByText('待本机构开具的').count()).toBeGreaterThan(0);
    if (invoices.count === 0) {
      await invoicesCard.getByText('暂无发票。').waitFor();
    } else {
      const first = invoices.data[0]!;
      await invoicesCard.getByText(first.title).first().waitFor();
      await invoicesCard.getByText(formatMoney(first.amountFen, first.currency)).first().waitFor();
    }
    await screenshot(t.page, 'billing-invoices-earnings', { fullPage: true });

    const applied = invoices.data.find((i) => i.status === 'applied');
    if (applied) {
      await invoicesCard
        .locator('tr')
        .filter({ hasText: applied.title })
        .getByRole('button', { name: '开 具' })
        .or(invoicesCard.locator('tr').filter({ hasText: applied.title }).getByRole('button', { name: '开具' }))
        .first()
        .click();
      const dialog = t.page.locator('.ant-modal').filter({ hasText: '开具发票' });
      await dialog.getByText('开具后不可撤销').waitFor();
      await screenshot(t.page, 'billing-invoices-issue-confirm');
      await dialog.getByRole('button', { name: /取\s?消/ }).click();
      await settle(t.page);
    }
  });
});
