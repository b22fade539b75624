// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, creditCalls, defaultDomainConfig, orderCalls, paymentCalls } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { productOf } from '../../test/billingFixtures';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

function openBilling(enabled: boolean, handlers: Record<string, FakeHandler> = {}, platformAdmin = false) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, enablePaymentService: enabled } }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ isPlatformAdmin: platformAdmin }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 1 })] }),
    'GET accounts/me/permissions': () => ({ status: 200, body: [] }),
    'GET accounts/me/organizations': () => ({
      status: 200,
      body: [{ id: 'x1', name: 'Expert Center', groupId: 'g1', accessLevel: 'admin' }],
    }),
    [callKey(creditCalls.groupCredit)]: () => ({
      status: 200,
      body: {
        groupId: 'g1',
        enabled: true,
        amountFen: 50_000,
        currency: 'CNY',
        balances: [{ currency: 'CNY', amountFen: 50_000 }],
      },
    }),
    [callKey(creditCalls.pageQuery)]: () => ({
      status: 200,
      body: {
        data: [
          {
            txnId: 't1',
            kind: 'topup',
            ref: 'TU1',
            orderId: null,
            memo: 'bank transfer',
            currency: 'CNY',
            amountFen: 60_000,
            created: '2026-11-26T10:00:00Z',
          },
          {
            txnId: 't2',
            kind: 'payment',
            ref: 'P1',
            orderId: 'o1',
            memo: '',
            currency: 'CNY',
            amountFen: -10_000,
            created: '2026-11-27T10:00:00Z',
          },
        ],
        count: 2,
      },
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
        updated: null,
        version: 0,
      },
    }),
    ...handlers,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  return { api, ...renderApp('/settings/billing') };
}

describe('/settings/billing', { timeout: 30_000 }, () => {
  it('goes to /404 when the payment service is off', async () => {
    const { router } = openBilling(false);
    await waitFor(() => expect(locationOf(router)).toBe('/404'), { timeout: 10_000 });
  });

  it("shows the group's balance and statement, and the expert organization's services and invoice settings", async () => {
    openBilling(true);
    expect(await screen.findByText('¥500.00', {}, { timeout: 15_000 })).toBeTruthy();
    expect(await screen.findByText('bank transfer')).toBeTruthy();
    expect(screen.getByText('-¥100.00')).toBeTruthy();
    expect(screen.getByText('Top-up')).toBeTruthy();
    expect(await screen.findByText('CT expert read')).toBeTruthy();
    expect(screen.getByText('¥125.50')).toBeTruthy();
    expect(screen.getByText('120 min')).toBeTruthy();
    expect(screen.getByText('20%')).toBeTruthy();
    await waitFor(() => expect(screen.getByDisplayValue('Expert Center Ltd')).toBeTruthy());
    expect(screen.queryByText('Record a top-up')).toBeNull();
    expect(screen.getAllByText('Billing').length).toBeGreaterThan(0);
  });

  it("says plainly that the group's balance is not the caller's to see (403), with no retry", async () => {
    openBilling(true, {
      [callKey(creditCalls.groupCredit)]: () => errorAnswer(403, 'InsufficientPermissions'),
      [callKey(creditCalls.pageQuery)]: () => errorAnswer(403, 'InsufficientPermissions'),
    });
    const said = await screen.findByText(
      "The group's balance and statement are shown to its admins and to members who may order reads.",
      {},
      { timeout: 15_000 },
    );
    const card = said.closest<HTMLElement>('.ant-card')!;
    expect(within(card).queryByRole('button', { name: /Retry/ })).toBeNull();
    expect(within(card).queryByText('Statement')).toBeNull();
  });

  it('adds a service with its price typed in yuan (sent in fen) and breach credit in percent (sent in basis points)', async () => {
    const { api } = openBilling(true, {
      [callKey(orderCalls.addProduct)]: () => ({ status: 201, body: productOf({ id: 'p9' }) }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add a service' }, { timeout: 15_000 }));
    const dialog = (await screen.findAllByText('Add a service')).at(-1)!.closest<HTMLElement>('.ant-modal')!;
    await user.type(within(dialog).getByLabelText('Service'), 'MR read');
    await user.type(within(dialog).getByLabelText('Price'), '88.8');
    await user.type(within(dialog).getByLabelText('Promised turnaround (minutes)'), '240');
    await user.clear(within(dialog).getByLabelText('Credit if late (%)'));
    await user.type(within(dialog).getByLabelText('Credit if late (%)'), '12.5');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'POST' && r.path === 'products')?.body).toEqual({
        bucketId: 'x1',
        type: 1,
        name: 'MR read',
        description: '',
        modality: null,
        priceFen: 8880,
        currency: 'CNY',
        turnaroundMinutes: 240,
        breachCreditBp: 1250,
        active: true,
      }),
    );
  });

  it('lists and adds a consultation service (type 3): a price, and no modality, turnaround or breach credit', async () => {
    const consultation = productOf({
      id: 'p3',
      type: 3,
      name: 'Expert consultation',
      modality: null,
      priceFen: 8000,
      turnaroundMinutes: null,
      breachCreditBp: 0,
    });
    const { api } = openBilling(true, {
      [callKey(orderCalls.products)]: (r) => ({
        status: 200,
        body: r.search.includes('type=1') ? [productOf()] : r.search.includes('type=3') ? [consultation] : [],
      }),
      [callKey(orderCalls.addProduct)]: () => ({ status: 201, body: productOf({ id: 'p9', type: 3 }) }),
    });
    const row = (await screen.findByText('Expert consultation', {}, { timeout: 15_000 })).closest('tr')!;
    expect(within(row).getByText('Consultation')).toBeTruthy();
    expect(within(row).getByText('¥80.00')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add a service' }));
    const dialog = (await screen.findAllByText('Add a service')).at(-1)!.closest<HTMLElement>('.ant-modal')!;
    expect(within(dialog).getByLabelText('Promised turnaround (minutes)')).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Consultation'));
    await waitFor(() => expect(within(dialog).queryByLabelText('Promised turnaround (minutes)')).toBeNull());
    expect(within(dialog).queryByLabelText('Credit if late (%)')).toBeNull();
    expect(within(dialog).queryByLabelText('Modality')).toBeNull();
    await user.type(within(dialog).getByLabelText('Service'), 'Remote consultation');
    await user.type(within(dialog).getByLabelText('Price'), '80');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'POST' && r.path === 'products')?.body).toEqual({
        bucketId: 'x1',
        type: 3,
        name: 'Remote consultation',
        description: '',
        modality: null,
        priceFen: 8000,
        currency: 'CNY',
        turnaroundMinutes: null,
        breachCreditBp: 0,
        active: true,
      }),
    );
  });

  it('a platform admin records a top-up with an Idempotency-Key', async () => {
    const { api } = openBilling(
      true,
      {
        [callKey(creditCalls.topUp)]: () => ({
          status: 200,
          body: {
            txnId: 't9',
            groupId: 'g1',
            amountFen: 10_000,
            currency: 'CNY',
            balanceFen: 60_000,
            created: '2026-11-27T11:00:00Z',
          },
        }),
      },
      true,
    );
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Amount in yuan', {}, { timeout: 15_000 }), '100');
    await user.click(screen.getByRole('button', { name: 'Record a top-up' }));
    await waitFor(() => {
      const topUp = api.requests.find((r) => r.path === 'credits/top-up');
      expect(topUp?.body).toEqual({ groupId: 'g1', amountFen: 10_000, memo: '' });
      expect(topUp?.headers['idempotency-key']).toMatch(/^web-/);
    });
  });
});
