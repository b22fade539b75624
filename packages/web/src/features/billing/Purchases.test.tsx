// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import {
  callKey,
  chargeCalls,
  creditCalls,
  defaultDomainConfig,
  organizationCalls,
  PLAN_PACKAGES,
  planCalls,
  purchaseCalls,
  type OwnCharge,
  type PrePaidOrder,
} from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { groupOf, organizationOf } from '../../test/tenancyFixtures';

const qr: PrePaidOrder = {
  id: 'c9',
  paymentNo: 'YP9',
  codeUrl: 'weixin://wxpay/bizpayurl?pr=topup',
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  expired: false,
  amountFen: 10_000,
  currency: 'CNY',
};

function chargeOf(overrides: Partial<OwnCharge>): OwnCharge {
  return {
    id: 'p1',
    paymentNo: 'YP1',
    purpose: 'order',
    orderId: 'o1',
    orderNo: 'RQ2026',
    packageId: null,
    groupId: 'g1',
    bucketId: 'b1',
    bucketName: 'Radiology',
    amountFen: 12_550,
    currency: 'CNY',
    refundedFen: 0,
    channel: 'weixin',
    status: 'paid',
    created: '2026-11-27T09:00:00Z',
    paidAt: '2026-11-27T09:01:00Z',
    ...overrides,
  };
}

/** /settings/billing of a caller at `level` in group g1, its balance ¥500.00 (then ¥600.00 once paid). */
function openBilling(level: number, handlers: Record<string, FakeHandler> = {}) {
  let paid = false;
  let balanceCalls = 0;
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, enablePaymentService: true } }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: level })] }),
    'GET accounts/me/permissions': () => ({ status: 200, body: [] }),
    'GET accounts/me/organizations': () => ({ status: 200, body: [] }),
    [callKey(creditCalls.groupCredit)]: () => {
      balanceCalls += 1;
      const amountFen = paid ? 60_000 : 50_000;
      return {
        status: 200,
        body: { groupId: 'g1', enabled: true, amountFen, currency: 'CNY', balances: [{ currency: 'CNY', amountFen }] },
      };
    },
    [callKey(creditCalls.pageQuery)]: () => ({ status: 200, body: { data: [], count: 0 } }),
    [callKey(organizationCalls.ofGroup)]: () => ({
      status: 200,
      body: [
        organizationOf({ id: 'b1', name: 'Radiology', isPrivate: false }),
        organizationOf({ id: 'b2', name: 'Checkup Centre', isPrivate: true, accessLevel: 'admin' }),
      ],
    }),
    [callKey(planCalls.packages)]: () => ({ status: 200, body: PLAN_PACKAGES }),
    [callKey(planCalls.check)]: () => ({
      status: 200,
      body: { bucketId: 'b2', available: false, blocked: 'SubscriptionExpired', remaining: 0, expiresAt: null },
    }),
    [callKey(chargeCalls.mine)]: () => ({
      status: 200,
      body: {
        data: [
          chargeOf({ id: 'p3', purpose: 'topup', orderId: null, orderNo: null, bucketId: null, bucketName: null }),
          chargeOf({
            id: 'p2',
            purpose: 'plan',
            orderId: null,
            orderNo: null,
            packageId: 'one-time-100',
            bucketId: 'b2',
            bucketName: 'Checkup Centre',
            status: 'pending',
            paidAt: null,
          }),
          chargeOf({ id: 'p1', refundedFen: 5_000 }),
        ],
        count: 3,
      },
    }),
    [callKey(purchaseCalls.weixinTopUp)]: () => ({
      status: 201,
      body: { id: 'c9', token: 'tok9', tokenExpires: 9_999_999_999 },
    }),
    [callKey(purchaseCalls.buyPackage)]: () => ({
      status: 201,
      body: { id: 'c9', token: 'tok9', tokenExpires: 9_999_999_999 },
    }),
    [callKey(chargeCalls.prePaidOrder)]: (r) =>
      r.headers.authorization === 'Charge tok9' ? { status: 200, body: qr } : errorAnswer(403, 'LinkInvalid'),
    [callKey(chargeCalls.paymentStatus)]: (r) => {
      if (r.headers.authorization !== 'Charge tok9') return errorAnswer(403, 'LinkInvalid');
      // the second look finds it paid (the notification settled it meanwhile)
      const wasPaid = paid;
      paid = true;
      return {
        status: 200,
        body: {
          id: 'c9',
          paymentNo: 'YP9',
          status: wasPaid ? 'paid' : 'pending',
          paymentStatus: wasPaid ? 1 : 0,
          paidAt: wasPaid ? '2026-11-27T10:00:00Z' : null,
        },
      };
    },
    ...handlers,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  renderApp('/settings/billing');
  return { api, balanceCalls: () => balanceCalls };
}

describe('/settings/billing purchases', { timeout: 30_000 }, () => {
  it('a group admin tops up by WeChat: amount in yuan, the QR, live status, and the balance read again', async () => {
    const { api } = openBilling(1);
    const user = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never });
    expect(await screen.findByText('¥500.00', {}, { timeout: 15_000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Top up by WeChat' }));
    const dialog = (await screen.findAllByText("Top up the group's balance by WeChat Pay"))
      .at(-1)!
      .closest<HTMLElement>('.ant-modal')!;
    await user.type(within(dialog).getByLabelText('Amount (yuan)'), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Pay' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'credits/weixin-top-up')?.body).toEqual({
        groupId: 'g1',
        amountFen: 10_000,
      }),
    );
    expect(await screen.findByText('¥100.00')).toBeTruthy();
    expect(await screen.findByText('Payment complete', {}, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText('¥600.00', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('refuses an amount under ¥1.00 or over ¥50,000.00 before asking the server', async () => {
    const { api } = openBilling(1);
    const user = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never });
    await user.click(await screen.findByRole('button', { name: 'Top up by WeChat' }, { timeout: 15_000 }));
    const dialog = (await screen.findAllByText("Top up the group's balance by WeChat Pay"))
      .at(-1)!
      .closest<HTMLElement>('.ant-modal')!;
    for (const typed of ['0.99', '50000.01']) {
      const input = within(dialog).getByLabelText('Amount (yuan)');
      await user.clear(input);
      await user.type(input, typed);
      await user.click(within(dialog).getByRole('button', { name: 'Pay' }));
      expect((await within(dialog).findAllByText('Enter an amount from ¥1.00 to ¥50,000.00')).length).toBeGreaterThan(
        0,
      );
    }
    expect(api.requests.some((r) => r.path === 'credits/weixin-top-up')).toBe(false);
  });

  it('a member of the group sees no top-up button and no plans of organizations it does not administer', async () => {
    openBilling(0, {
      [callKey(organizationCalls.ofGroup)]: () => ({
        status: 200,
        body: [organizationOf({ id: 'b2', name: 'Checkup Centre', isPrivate: true, accessLevel: 'member' })],
      }),
    });
    expect(await screen.findByText('¥500.00', {}, { timeout: 15_000 })).toBeTruthy();
    expect(await screen.findByText('My payments')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Top up by WeChat' })).toBeNull();
    expect(screen.queryByTestId('plan-packages')).toBeNull();
  });

  it("shows the private organization's plan and the packages with prices, and buys one by WeChat", async () => {
    const { api } = openBilling(0);
    const card = await screen.findByTestId('plan-packages', {}, { timeout: 15_000 });
    expect(await within(card).findByText('Plan expired or none')).toBeTruthy();
    expect(await within(card).findByText('1000 studies / 365 days')).toBeTruthy();
    expect(within(card).getByText('¥3,000.00')).toBeTruthy();
    expect(within(card).getByText('Unlimited studies / 365 days')).toBeTruthy();
    const row = within(card).getByText('100 studies (one-time, no end date)').closest('tr')!;
    expect(within(row).getByText('¥500.00')).toBeTruthy();
    fireEvent.click(within(row).getByText('Buy').closest('button')!);
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'packages/buy')?.body).toEqual({
        bucketId: 'b2',
        packageId: 'one-time-100',
      }),
    );
    expect(await screen.findByText('Buy a package: 100 studies (one-time, no end date)')).toBeTruthy();
    expect(await screen.findByText('Payment complete', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it("lists the caller's own charges with what each paid for", async () => {
    openBilling(1);
    const card = await screen.findByTestId('my-charges', {}, { timeout: 15_000 });
    expect(await within(card).findByText('Balance top-up')).toBeTruthy();
    expect(within(card).getByText('Package 100 studies (one-time, no end date) (Checkup Centre)')).toBeTruthy();
    expect(within(card).getByText('Order RQ2026')).toBeTruthy();
    expect(within(card).getByText('Awaiting payment')).toBeTruthy();
    expect(within(card).getAllByText('Paid')).toHaveLength(2);
    expect(within(card).getByText('¥50.00 refunded')).toBeTruthy();
    expect(within(card).getAllByText('¥125.50')).toHaveLength(3);
  });
});
