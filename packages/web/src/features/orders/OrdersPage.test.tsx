// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, defaultDomainConfig, orderCalls, paymentCalls, type Order } from '@yyp/contracts';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { orderOf } from '../../test/billingFixtures';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

const paidOrder = orderOf({
  id: 'o2',
  orderNo: 'R2',
  paymentStatus: 1,
  channel: 'weixin',
  paidFen: 12_550,
  paidAt: '2026-11-27T09:05:00Z',
  deadlineAt: new Date(Date.now() + 90 * 60_000 + 30_000).toISOString(),
});

function paymentOf(order: Order) {
  return {
    id: 'pay2',
    paymentNo: 'P2',
    orderId: order.id,
    orderNo: order.orderNo,
    productName: order.productName,
    requestBucketId: 'b1',
    expertBucketId: 'x1',
    channel: 'weixin',
    amountFen: order.paidFen,
    currency: 'CNY',
    refundedFen: 0,
    status: 'paid',
    paymentStatus: 1,
    transactionId: 'T2',
    invoiceStatus: 'none',
    invoiceId: null,
    created: '2026-11-27T09:04:00Z',
    paidAt: '2026-11-27T09:05:00Z',
    refunds: [],
  };
}

function openOrders(actions: Record<string, string[]>, handlers: Record<string, FakeHandler>) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, enablePaymentService: true } }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: Object.entries(actions).map(([bucketId, a]) => ({
        bucketId,
        groupId: 'g1',
        type: 1,
        accessLevel: 'member',
        actions: a,
      })),
    }),
    'GET accounts/me/organizations': () => ({
      status: 200,
      body: Object.keys(actions).map((id) => ({
        id,
        name: id === 'b1' ? 'Radiology' : 'Expert Center',
        groupId: 'g1',
        accessLevel: 'member',
      })),
    }),
    ...handlers,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  return { api, ...renderApp('/orders') };
}

describe('/orders', { timeout: 30_000 }, () => {
  it('lists the placed orders 10 a page with status, payment and time left, and filters them', async () => {
    const { api } = openOrders(
      { b1: ['exam_get', 'apply_expert_report'] },
      {
        [callKey(orderCalls.pageQuery)]: () => ({ status: 200, body: { data: [orderOf(), paidOrder], count: 12 } }),
        [callKey(orderCalls.exportExcel)]: () => ({ status: 200, body: 'PK' }),
      },
    );
    expect(await screen.findByText('R20261127001', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByText('Unpaid')).toBeTruthy();
    expect(screen.getAllByText('Paid').length).toBeGreaterThan(0);
    expect(screen.getByText('1 h 30 min left')).toBeTruthy();
    expect(screen.getAllByText('¥125.50').length).toBe(2);
    const first = api.requests.find((r) => r.path === 'orders/page-query');
    expect(first?.search).toBe('?requestBucketId=b1');
    expect(first?.body).toMatchObject({ limit: 10, skip: 0, filters: {} });

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() =>
      expect(api.requests.filter((r) => r.path === 'orders/page-query').at(-1)?.body).toMatchObject({ skip: 10 }),
    );

    const search = screen.getByPlaceholderText('Patient name');
    fireEvent.change(search, { target: { value: 'Zhang' } });
    fireEvent.keyDown(search, { key: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(api.requests.filter((r) => r.path === 'orders/page-query').at(-1)?.body).toMatchObject({
        skip: 0,
        filters: { patientName: 'Zhang' },
      }),
    );

    // Export writes the list as filtered (orders/export-excel), not the payments
    const saved: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:xlsx');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    fireEvent.click(screen.getByRole('button', { name: /Export orders/ }));
    await waitFor(() => expect(saved).toEqual([expect.stringMatching(/^orders-\d{4}-\d{2}-\d{2}\.xlsx$/)]));
    const exported = api.requests.find((r) => r.path === 'orders/export-excel')!;
    expect(exported.search).toBe('?requestBucketId=b1');
    expect(exported.body).toEqual({ filters: { patientName: 'Zhang' }, language: 'en' });
    expect(api.requests.some((r) => r.path === 'payments/export-excel')).toBe(false);
    vi.restoreAllMocks();
  });

  it('the received side asks by targetBucketId; an order admin refunds part of a paid order with a reason', async () => {
    let refunded = 0;
    const { api } = openOrders(
      { x1: ['exam_get', 'payment_refund'] },
      {
        [callKey(orderCalls.pageQuery)]: () => ({ status: 200, body: { data: [paidOrder], count: 1 } }),
        [callKey(orderCalls.detail)]: () => ({
          status: 200,
          body: {
            order: { ...paidOrder, refundedFen: refunded },
            ledger: [
              {
                txnId: 't1',
                kind: 'payment',
                ref: 'P2',
                orderId: 'o2',
                memo: '',
                account: 'cash:weixin',
                amountFen: 12_550,
                currency: 'CNY',
                created: '2026-11-27T09:05:00Z',
              },
              {
                txnId: 't1',
                kind: 'payment',
                ref: 'P2',
                orderId: 'o2',
                memo: '',
                account: 'revenue:x1',
                amountFen: -12_550,
                currency: 'CNY',
                created: '2026-11-27T09:05:00Z',
              },
            ],
            applyForms: [],
          },
        }),
        [callKey(paymentCalls.pageQuery)]: () => ({ status: 200, body: { data: [paymentOf(paidOrder)], count: 1 } }),
        [callKey(paymentCalls.refund)]: (r) => {
          refunded = (r.body as { amountFen: number }).amountFen;
          return {
            status: 201,
            body: {
              refundNo: 'RF1',
              paymentNo: 'P2',
              orderId: 'o2',
              amountFen: refunded,
              currency: 'CNY',
              status: 'success',
              reason: 'partial',
              operatorId: 'u-doctor',
              created: '2026-11-27T10:00:00Z',
              finishedAt: '2026-11-27T10:00:00Z',
              paymentStatus: 4,
            },
          };
        },
      },
    );
    const user = userEvent.setup();
    await user.click(await screen.findByText('Received', {}, { timeout: 15_000 }));
    await user.click(await screen.findByText('R2', {}, { timeout: 15_000 }));
    expect(await screen.findByText('revenue:x1', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('-¥125.50')).toBeTruthy();
    expect(
      api.requests.find((r) => r.path === 'orders/page-query' && r.search.includes('targetBucketId=x1')),
    ).toBeTruthy();

    await user.click(await screen.findByTestId('refund-open'));
    const dialog = (await screen.findByText('Refund the order')).closest<HTMLElement>('.ant-modal')!;
    const amount = within(dialog).getByLabelText('Refund amount');
    await user.clear(amount);
    await user.type(amount, '200');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByText('Enter an amount from 0.01 to ¥125.50')).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '25.5');
    await user.type(within(dialog).getByLabelText('Reason'), 'partial');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(refunded).toBe(2550));
    const refund = api.requests.find((r) => r.path === 'payments/P2/refund');
    expect(refund?.body).toEqual({ amountFen: 2550, reason: 'partial' });
    expect(refund?.headers['idempotency-key']).toMatch(/^web-/);
  });

  it('applies for an invoice for selected paid weixin orders only', async () => {
    const { api } = openOrders(
      { b1: ['exam_get', 'apply_expert_report'] },
      {
        [callKey(orderCalls.pageQuery)]: () => ({ status: 200, body: { data: [orderOf(), paidOrder], count: 2 } }),
        [callKey(paymentCalls.applyInvoice)]: () => ({
          status: 201,
          body: {
            id: 'inv1',
            bucketId: 'x1',
            requestBucketId: 'b1',
            status: 'applied',
            title: 'County Hospital',
            taxNo: '',
            phone: '13800000000',
            email: '',
            amountFen: 12_550,
            currency: 'CNY',
            invoiceNo: null,
            orderIds: ['o2'],
            appliedAt: '2026-11-27T10:00:00Z',
            issuedAt: null,
          },
        }),
      },
    );
    const user = userEvent.setup();
    await screen.findByText('R2', {}, { timeout: 15_000 });
    const applyButton = screen.getByRole('button', { name: /Apply for an invoice/ });
    expect(applyButton.hasAttribute('disabled')).toBe(true);
    const boxes = screen.getAllByRole('checkbox');
    // the unpaid order: refused
    await user.click(boxes[1]!);
    expect(applyButton.hasAttribute('disabled')).toBe(true);
    await user.click(boxes[1]!);
    await user.click(boxes[2]!);
    expect(applyButton.hasAttribute('disabled')).toBe(false);
    await user.click(applyButton);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('1 orders, ¥125.50 in all.')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Invoice title'), 'County Hospital');
    await user.type(within(dialog).getByLabelText('Contact phone'), '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('Enter a valid phone number')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Contact phone'));
    await user.type(within(dialog).getByLabelText('Contact phone'), '13800000000');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'payments/apply-invoice')?.body).toEqual({
        orderIds: ['o2'],
        title: 'County Hospital',
        taxNo: '',
        phone: '13800000000',
        email: '',
      }),
    );
  });

  it('the requester uploads an apply form (policy, bytes, record) and cancels an unpaid order', async () => {
    let forms: unknown[] = [];
    let cancelled = false;
    const { api } = openOrders(
      { b1: ['exam_get', 'apply_expert_report', 'upload_apply_forms'] },
      {
        [callKey(orderCalls.pageQuery)]: () => ({ status: 200, body: { data: [orderOf()], count: 1 } }),
        [callKey(orderCalls.detail)]: () => ({
          status: 200,
          body: { order: orderOf(cancelled ? { status: 'cancelled' } : {}), ledger: [], applyForms: forms },
        }),
        'GET policies/forms': () => ({
          status: 200,
          body: {
            key: 'forms/k1',
            upload: {
              method: 'PUT',
              url: '/yyp/api/v1/blobs/forms/k1',
              headers: { 'content-type': 'application/pdf' },
            },
            expiresAt: 4_000_000_000,
            maxBytes: 5_000_000,
            accept: ['application/pdf'],
          },
        }),
        'PUT blobs/forms/k1': () => ({ status: 204 }),
        [callKey(orderCalls.uploadApplyForms)]: (r) => {
          forms = [
            {
              id: 'f1',
              orderId: 'o1',
              fileName: (r.body as { name: string }).name,
              contentType: 'application/pdf',
              size: 4,
              created: '2026-11-27T10:00:00Z',
              url: '/yyp/api/v1/blobs/forms/k1?sig=x',
            },
          ];
          return { status: 200, body: forms };
        },
        [callKey(orderCalls.cancelRemote)]: () => {
          cancelled = true;
          return { status: 200, body: orderOf({ status: 'cancelled' }) };
        },
      },
    );
    const user = userEvent.setup();
    await user.click(await screen.findByText('R20261127001', {}, { timeout: 15_000 }));
    expect(await screen.findByText('No request forms.')).toBeTruthy();
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    await user.upload(input, new File(['%PDF'], 'referral.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('referral.pdf')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'orders/o1/upload-applyforms')?.body).toEqual({
      key: 'forms/k1',
      name: 'referral.pdf',
      contentType: 'application/pdf',
    });
    await user.click(screen.getByRole('button', { name: 'Cancel the order' }));
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(cancelled).toBe(true));
    expect(api.requests.find((r) => r.path === 'request/o1/cancel-remote')?.body).toEqual({ reason: '', version: 1 });
  });

  it('the expert organization issues an applied invoice with its number', async () => {
    const applied = { ...paidOrder, invoiceStatus: 'applied' as const };
    const { api } = openOrders(
      { x1: ['exam_get', 'issue_invoice'] },
      {
        [callKey(orderCalls.pageQuery)]: () => ({ status: 200, body: { data: [applied], count: 1 } }),
        [callKey(orderCalls.detail)]: () => ({ status: 200, body: { order: applied, ledger: [], applyForms: [] } }),
        [callKey(paymentCalls.pageQuery)]: () => ({
          status: 200,
          body: { data: [{ ...paymentOf(applied), invoiceStatus: 'applied', invoiceId: 'inv1' }], count: 1 },
        }),
        [callKey(paymentCalls.issueInvoice)]: (r) => ({
          status: 200,
          body: {
            id: 'inv1',
            bucketId: 'x1',
            requestBucketId: 'b1',
            status: 'issued',
            title: 'County Hospital',
            taxNo: '',
            phone: '13800000000',
            email: '',
            amountFen: 12_550,
            currency: 'CNY',
            invoiceNo: (r.body as { invoiceNo: string }).invoiceNo,
            orderIds: ['o2'],
            appliedAt: '2026-11-27T10:00:00Z',
            issuedAt: '2026-11-27T11:00:00Z',
          },
        }),
      },
    );
    const user = userEvent.setup();
    await user.click(await screen.findByText('Received', {}, { timeout: 15_000 }));
    await user.click(await screen.findByText('R2', {}, { timeout: 15_000 }));
    await user.click(await screen.findByRole('button', { name: 'Issue the invoice' }));
    await user.type(await screen.findByLabelText('Invoice number'), 'FP-0001');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'payments/issue-invoice')?.body).toEqual({
        invoiceId: 'inv1',
        invoiceNo: 'FP-0001',
      }),
    );
  });
});
