// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  callKey,
  defaultDomainConfig,
  earningsCalls,
  invoiceCalls,
  orderCalls,
  paymentCalls,
  type InvoiceListItem,
} from '@yyp/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { productOf } from '../../test/billingFixtures';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

/** /settings/billing's earnings, invoice list and version-checked invoice settings (issue 24). */

const invoiceOf = (o: Partial<InvoiceListItem> = {}): InvoiceListItem => ({
  id: 'inv1',
  bucketId: 'x1',
  requestBucketId: 'b1',
  status: 'applied',
  title: 'County Hospital',
  taxNo: '9133',
  phone: '13812345678',
  email: '',
  amountFen: 12_000,
  currency: 'CNY',
  invoiceNo: null,
  orderIds: ['o1'],
  appliedAt: '2026-11-20T02:00:00Z',
  issuedAt: null,
  expertBucketName: 'Expert Center',
  requestBucketName: 'County Radiology',
  orders: [{ id: 'o1', orderNo: 'R20261120001', productName: 'CT expert read' }],
  ...o,
});

const sums = {
  currency: 'CNY' as const,
  orders: 2,
  grossFen: 15_050,
  refundsFen: 5_000,
  creditsFen: 610,
  netFen: 9_440,
};

function openBilling(actions: string[], handlers: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, enablePaymentService: true } }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [] }),
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: [{ bucketId: 'x1', groupId: 'g1', type: 1, accessLevel: 'member', actions }],
    }),
    'GET accounts/me/organizations': () => ({
      status: 200,
      body: [{ id: 'x1', name: 'Expert Center', groupId: 'g1', accessLevel: 'admin' }],
    }),
    [callKey(orderCalls.products)]: (r) => ({ status: 200, body: r.search.includes('type=1') ? [productOf()] : [] }),
    [callKey(paymentCalls.invoiceConfig)]: () => ({
      status: 200,
      body: {
        bucketId: 'x1',
        supportsInvoice: true,
        issuerName: 'Expert Center Ltd',
        taxNo: '9111',
        note: '',
        updated: '2026-11-01T00:00:00Z',
        version: 3,
      },
    }),
    [callKey(earningsCalls.pageQuery)]: () => ({
      status: 200,
      body: {
        bucketId: 'x1',
        from: '2026-11-01',
        to: '2026-11-27',
        months: [{ month: '2026-11', ...sums }],
        totals: [sums],
        data: [
          {
            orderId: 'o1',
            orderNo: 'R20261120001',
            productName: 'CT expert read',
            requestBucketName: 'County Radiology',
            currency: 'CNY',
            postedAt: '2026-11-20T02:00:00Z',
            grossFen: 12_000,
            refundsFen: 5_000,
            creditsFen: 0,
            netFen: 7_000,
          },
        ],
        count: 1,
      },
    }),
    [callKey(invoiceCalls.pageQuery)]: (r) => ({
      status: 200,
      body: r.search.includes('side=issuer') ? { data: [invoiceOf()], count: 1 } : { data: [], count: 0 },
    }),
    ...handlers,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  return { api, ...renderApp('/settings/billing') };
}

let saved: string[];
beforeEach(() => {
  saved = [];
  URL.createObjectURL = vi.fn(() => 'blob:xlsx');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('/settings/billing earnings and invoices', { timeout: 60_000 }, () => {
  it("shows the expert organization's earnings per month and per order, and exports them", async () => {
    const { api } = openBilling(['issue_invoice', 'payment_refund'], {
      [callKey(earningsCalls.exportExcel)]: () => ({ status: 200, body: 'PK' }),
    });
    const card = (await screen.findByText('Earnings', {}, { timeout: 15_000 })).closest<HTMLElement>('.ant-card')!;
    expect(await within(card).findAllByText('¥94.40')).toHaveLength(2);
    expect(within(card).getAllByText('¥150.50')).toHaveLength(2);
    expect(within(card).getAllByText('¥6.10')).toHaveLength(2);
    expect(within(card).getByText('2026-11')).toBeTruthy();
    expect(within(card).getByText('R20261120001')).toBeTruthy();
    expect(within(card).getByText('¥70.00')).toBeTruthy();
    const asked = api.requests.find((r) => r.path === 'earnings/page-query')!;
    expect(asked.search).toContain('bucketId=x1');
    expect(asked.body).toMatchObject({ limit: 10, skip: 0 });
    expect((asked.body as { from: string }).from).toMatch(/^\d{4}-\d{2}-01$/);
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Export (.xlsx)' }));
    await waitFor(() => expect(saved).toEqual([expect.stringMatching(/^earnings-\d{4}-\d{2}-01-.*\.xlsx$/)]));
    const exported = api.requests.find((r) => r.path === 'earnings/export-excel')!;
    expect(exported.search).toContain('language=en');
  });

  it('lists the invoices to issue and issues one only after the irreversible confirmation', async () => {
    let issued = false;
    const { api } = openBilling(['issue_invoice'], {
      [callKey(paymentCalls.issueInvoice)]: (r) => {
        issued = true;
        return {
          status: 200,
          body: { ...invoiceOf(), status: 'issued', invoiceNo: (r.body as { invoiceNo: string }).invoiceNo },
        };
      },
    });
    const card = (await screen.findByText('Invoice list', {}, { timeout: 15_000 })).closest<HTMLElement>('.ant-card')!;
    expect(await within(card).findByText('County Hospital')).toBeTruthy();
    expect(within(card).getByText('Applied')).toBeTruthy();
    expect(within(card).getByText('R20261120001')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'invoices/page-query')?.search).toContain('side=issuer');
    const user = userEvent.setup();
    // A plain click: userEvent's pointer checks walk the whole table's styles in jsdom (tens of seconds).
    fireEvent.click(within(card).getByText('Issue'));
    const dialog = (await screen.findByText('Issue the invoice')).closest<HTMLElement>('.ant-modal')!;
    expect(within(dialog).getByText(/Issuing cannot be undone/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Issue (irreversible)' }));
    expect(issued).toBe(false);
    await user.type(within(dialog).getByLabelText('Invoice no.'), ' FP0001 ');
    await user.click(within(dialog).getByRole('button', { name: 'Issue (irreversible)' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'payments/issue-invoice')?.body).toEqual({
        invoiceId: 'inv1',
        invoiceNo: 'FP0001',
      }),
    );
  });

  it('shows nothing of earnings or issuing to a caller without those actions', async () => {
    const { api } = openBilling(['exam_get']);
    await screen.findAllByText('Billing', {}, { timeout: 15_000 });
    await waitFor(() => expect(api.requests.some((r) => r.path === 'accounts/me/permissions')).toBe(true));
    expect(screen.queryByText('Earnings')).toBeNull();
    expect(screen.queryByText('Invoice list')).toBeNull();
    expect(api.requests.some((r) => r.path.startsWith('earnings/') || r.path.startsWith('invoices/'))).toBe(false);
  });

  it('saves the invoice settings at the version loaded, and says so when someone else changed them', async () => {
    let puts = 0;
    const { api } = openBilling(['bucket_manage'], {
      [callKey(paymentCalls.updateInvoiceConfig)]: () => {
        puts += 1;
        return { status: 409, body: { code: 'Conflict', message: 'changed' } };
      },
    });
    await waitFor(() => expect(screen.getByDisplayValue('Expert Center Ltd')).toBeTruthy(), { timeout: 15_000 });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Someone else changed the invoice settings/)).toBeTruthy();
    const put = api.requests.find((r) => r.method === 'PUT' && r.path === 'buckets/x1/invoice-config')!;
    expect(put.body).toMatchObject({ supportsInvoice: true, issuerName: 'Expert Center Ltd', version: 3 });
    expect(puts).toBe(1);
    // The current settings are loaded again.
    await waitFor(() =>
      expect(api.requests.filter((r) => r.method === 'GET' && r.path === 'buckets/x1/invoice-config')).toHaveLength(2),
    );
  });
});
