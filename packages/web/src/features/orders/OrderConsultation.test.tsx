// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, defaultDomainConfig, orderCalls } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { orderOf } from '../../test/billingFixtures';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

/** A consultation's fee (issue 25): an order of type consultation of consultation c1, unpaid. */
const fee = orderOf({
  id: 'o9',
  orderNo: 'C9',
  type: 'consultation',
  consultationId: 'c1',
  productName: 'Expert consultation',
  priceFen: 8000,
});

function openOrders() {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, enablePaymentService: true } }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: [
        {
          bucketId: 'b1',
          groupId: 'g1',
          type: 1,
          accessLevel: 'member',
          actions: ['exam_get', 'apply_expert_report', 'consultation_create'],
        },
      ],
    }),
    'GET accounts/me/organizations': () => ({
      status: 200,
      body: [{ id: 'b1', name: 'Radiology', groupId: 'g1', accessLevel: 'member' }],
    }),
    [callKey(orderCalls.pageQuery)]: () => ({ status: 200, body: { data: [orderOf(), fee], count: 2 } }),
    [callKey(orderCalls.detail)]: () => ({ status: 200, body: { order: fee, ledger: [], applyForms: [] } }),
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  return { api, ...renderApp('/orders') };
}

describe('/orders: consultation fees', { timeout: 30_000 }, () => {
  it('names each order’s kind, filters by it, and opens a fee’s consultation from its detail', async () => {
    const { api, router } = openOrders();
    const row = (await screen.findByText('C9', {}, { timeout: 15_000 })).closest('tr')!;
    expect(within(row).getByText('Consultation')).toBeTruthy();
    expect(within(screen.getByText('R20261127001').closest('tr')!).getByText('Expert report')).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Kind' }));
    const options = document.querySelectorAll('.ant-select-dropdown .ant-select-item-option');
    expect([...options].map((o) => o.textContent)).toEqual(['Expert report', 'Remote report', 'Consultation']);
    await user.click(options[2]!);
    await waitFor(() =>
      expect(api.requests.filter((r) => r.path === 'orders/page-query').at(-1)?.body).toMatchObject({
        skip: 0,
        filters: { type: 'consultation' },
      }),
    );

    await user.click(screen.getByText('C9'));
    const drawer = (await screen.findByText('Open the consultation')).closest<HTMLElement>('.ant-drawer')!;
    // unpaid: paid on its payment page; cancelled only with its consultation, not here
    expect(within(drawer).getByRole('button', { name: 'Pay' })).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: 'Cancel the order' })).toBeNull();
    await user.click(within(drawer).getByRole('link', { name: 'Open the consultation' }));
    await waitFor(() => expect(locationOf(router)).toBe('/consultations/c1'));
  });
});
