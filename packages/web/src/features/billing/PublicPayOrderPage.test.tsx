// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { callKey, chargeCalls, defaultDomainConfig, orderCalls, type ChargeDetail } from '@yyp/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { orderOf } from '../../test/billingFixtures';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';
import { chargeTokenKey, storedChargeTokens } from './chargeToken';

/**
 * /exams/{examId}/apply-report/{applicationId} is public (spec 000 §2): signed out it shows no PHI,
 * only the payment of the order's charge when this tab keeps its charge token, or a way to sign in
 * that comes back to the page.
 */
const PAGE = '/exams/e1/apply-report/o1';

function charge(id: string, orderId: string): ChargeDetail {
  return {
    id,
    paymentNo: `P-${id}`,
    orderId,
    orderNo: `R-${orderId}`,
    productName: 'CT expert read',
    expertBucketName: 'Expert Center',
    amountFen: 12_550,
    currency: 'CNY',
    channel: 'weixin',
    status: 'pending',
    paymentStatus: 0,
    expiresAt: null,
    paidAt: null,
    created: '2026-11-27T09:00:00Z',
  } as ChargeDetail;
}

/** The server: charge c1 (order o1) answers token tok1, charge c2 (order o2) tok2; the requester's order needs the bearer. */
function serve(handlers: Record<string, FakeHandler> = {}) {
  const charges: Record<string, [string, ChargeDetail]> = {
    c1: ['tok1', charge('c1', 'o1')],
    c2: ['tok2', charge('c2', 'o2')],
  };
  return installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, enablePaymentService: true } }),
    [callKey(chargeCalls.detail)]: (r) => {
      const found = charges[r.params.id ?? ''];
      return found && r.headers.authorization === `Charge ${found[0]}`
        ? { status: 200, body: found[1] }
        : errorAnswer(403, 'NoPermissionToPay');
    },
    [callKey(orderCalls.requestDetail)]: (r) =>
      r.headers.authorization?.startsWith('Bearer ')
        ? { status: 200, body: orderOf() }
        : errorAnswer(401, 'Unauthenticated'),
    ...handlers,
  });
}

describe('the public apply-report page', () => {
  beforeEach(() => {
    sessionStorage.clear();
    sessionStore.signOut();
  });

  it('signed out and without a charge token: no PHI, a message and a sign-in that comes back here', async () => {
    const api = serve({
      'GET accounts/me': () => ({ status: 200, body: demoUser() }),
      'GET accounts/me/permissions': () => ({ status: 200, body: [] }),
    });
    const { router } = renderApp(PAGE);
    expect(
      await screen.findByText(
        'Sign in to pay for this order, or open the payment link you were sent.',
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Zhang San')).toBeNull();
    expect(api.requests.some((r) => r.path.startsWith('request/'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: /Sign in/ }));
    await waitFor(() => expect(locationOf(router)).toBe(`/login?redirect=${encodeURIComponent(PAGE)}`));
  }, 30_000);

  it("signed out with this tab's token of the order's charge: the payment view of /charge/{id}", async () => {
    sessionStorage.setItem(chargeTokenKey('c2'), 'tok2');
    sessionStorage.setItem(chargeTokenKey('c1'), 'tok1');
    sessionStorage.setItem(chargeTokenKey('c9'), 'stale');
    const api = serve({
      [callKey(chargeCalls.prePaidOrder)]: () => ({
        status: 200,
        body: {
          id: 'c1',
          paymentNo: 'P-c1',
          codeUrl: 'weixin://wxpay/bizpayurl?pr=c1',
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
          expired: false,
          amountFen: 12_550,
          currency: 'CNY',
        },
      }),
      [callKey(chargeCalls.paymentStatus)]: () => ({
        status: 200,
        body: { id: 'c1', paymentNo: 'P-c1', status: 'pending', paymentStatus: 0, paidAt: null },
      }),
    });
    renderApp(PAGE);
    expect(await screen.findByText('R-o1', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Expert Center')).toBeTruthy();
    expect((await screen.findByTestId('payment-qr')).getAttribute('data-code-url')).toBe(
      'weixin://wxpay/bizpayurl?pr=c1',
    );
    expect(screen.queryByText('R-o2')).toBeNull();
    expect(screen.queryByText('Zhang San')).toBeNull();
    // only with charge tokens, never a bearer
    expect(api.requests.every((r) => !r.headers.authorization?.startsWith('Bearer'))).toBe(true);
    expect(api.requests.some((r) => r.path === 'charge/c1/pre-paid-order')).toBe(true);
  }, 30_000);

  it('signed in: the requester’s payment page in the app shell, as before', async () => {
    sessionStorage.setItem(chargeTokenKey('c1'), 'tok1');
    serve({
      'GET accounts/me': () => ({ status: 200, body: demoUser() }),
      'GET accounts/me/permissions': () => ({ status: 200, body: [] }),
      'GET groups/mine': () => ({ status: 200, body: [] }),
    });
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp(PAGE);
    expect(await screen.findByText('Zhang San', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('R20261127001')).toBeTruthy();
    expect(screen.queryByTestId('apply-report-signed-out')).toBeNull();
  }, 30_000);

  it('lists the charge tokens this tab keeps, and nothing else', () => {
    const storage = new Map<string, string>([
      [chargeTokenKey('c1'), 'tok1'],
      ['yyp.session', 'x'],
      [chargeTokenKey('c2'), ''],
    ]);
    const keys = [...storage.keys()];
    const fake = {
      length: keys.length,
      key: (i: number) => keys[i] ?? null,
      getItem: (k: string) => storage.get(k) ?? null,
    };
    expect(storedChargeTokens(fake)).toEqual([{ chargeId: 'c1', token: 'tok1' }]);
  });
});
