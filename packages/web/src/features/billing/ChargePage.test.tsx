// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { callKey, chargeCalls, defaultDomainConfig, type ChargeStatus, type PrePaidOrder } from '@yyp/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorAnswer, installFakeApi, type FakeHandler } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';
import { chargeTokenKey } from './chargeToken';

const inHalfAnHour = () => new Date(Date.now() + 30 * 60_000).toISOString();

function qrOf(overrides: Partial<PrePaidOrder> = {}): PrePaidOrder {
  return {
    id: 'c1',
    paymentNo: 'P1',
    codeUrl: 'weixin://wxpay/bizpayurl?pr=one',
    expiresAt: inHalfAnHour(),
    expired: false,
    amountFen: 12_550,
    currency: 'CNY',
    ...overrides,
  };
}

function statusOf(paymentStatus: ChargeStatus['paymentStatus']): ChargeStatus {
  return {
    id: 'c1',
    paymentNo: 'P1',
    status: paymentStatus === 1 ? 'paid' : 'pending',
    paymentStatus,
    paidAt: paymentStatus === 1 ? '2026-11-27T10:00:00Z' : null,
  };
}

const detail = {
  id: 'c1',
  paymentNo: 'P1',
  orderId: 'o1',
  orderNo: 'R20261127001',
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
};

/** The charge's server: answers only the charge token 'tok1'. */
function openCharge(path: string, handlers: Record<string, FakeHandler>) {
  const guarded =
    (handler: FakeHandler): FakeHandler =>
    (r) =>
      r.headers.authorization === 'Charge tok1' ? handler(r) : errorAnswer(403, 'NoPermissionToPay');
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    [callKey(chargeCalls.detail)]: guarded(() => ({ status: 200, body: detail })),
    ...Object.fromEntries(Object.entries(handlers).map(([k, h]) => [k, guarded(h)])),
  });
  return { api, ...renderApp(path) };
}

describe('/charge/:id', () => {
  beforeEach(() => sessionStorage.clear());

  it('keeps the token of the address in session storage, shows the order and the QR, and polls until paid', async () => {
    let polls = 0;
    const { api, router } = openCharge('/charge/c1?token=tok1', {
      [callKey(chargeCalls.prePaidOrder)]: () => ({ status: 200, body: qrOf() }),
      [callKey(chargeCalls.paymentStatus)]: () => {
        polls += 1;
        return { status: 200, body: statusOf(polls >= 2 ? 1 : 0) };
      },
    });
    expect(await screen.findByText('R20261127001')).toBeTruthy();
    expect(screen.getAllByText('¥125.50').length).toBeGreaterThan(0);
    expect(screen.getByText('Expert Center')).toBeTruthy();
    expect((await screen.findByTestId('payment-qr')).getAttribute('data-code-url')).toBe(
      'weixin://wxpay/bizpayurl?pr=one',
    );
    expect(sessionStorage.getItem(chargeTokenKey('c1'))).toBe('tok1');
    await waitFor(() => expect(locationOf(router)).toBe('/charge/c1'));
    expect(await screen.findByText('Payment complete', {}, { timeout: 6000 })).toBeTruthy();
    // paid: the page stops asking and forgets the token
    const asked = api.requests.filter((r) => r.path === 'charge/c1/payment-status').length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(api.requests.filter((r) => r.path === 'charge/c1/payment-status').length).toBe(asked);
    expect(sessionStorage.getItem(chargeTokenKey('c1'))).toBeNull();
    // never the account's bearer
    expect(api.requests.every((r) => !r.headers.authorization?.startsWith('Bearer'))).toBe(true);
  }, 15_000);

  it('offers a new QR once the code expired (refresh=1)', async () => {
    const { api } = openCharge('/charge/c1?token=tok1', {
      [callKey(chargeCalls.prePaidOrder)]: (r) =>
        r.search.includes('refresh=1')
          ? { status: 200, body: qrOf({ codeUrl: 'weixin://wxpay/bizpayurl?pr=two' }) }
          : {
              status: 200,
              body: qrOf({ expired: true, expiresAt: new Date(Date.now() - 1000).toISOString() }),
            },
      [callKey(chargeCalls.paymentStatus)]: () => ({ status: 200, body: statusOf(0) }),
    });
    expect(await screen.findByText('The QR code has expired.')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Get a new QR code' })[0]!);
    await waitFor(() =>
      expect(screen.getByTestId('payment-qr').getAttribute('data-code-url')).toBe('weixin://wxpay/bizpayurl?pr=two'),
    );
    expect(api.requests.some((r) => r.path === 'charge/c1/pre-paid-order' && r.search === '?refresh=1')).toBe(true);
    expect(screen.getByTestId('payment-phase').textContent).toMatch(/expires in (29|30):/);
  });

  it('asks the channel on "I have paid" and shows the sim scan link in sim mode', async () => {
    let confirmed = false;
    const { api } = openCharge('/charge/c1?token=tok1', {
      [callKey(chargeCalls.prePaidOrder)]: () => ({
        status: 200,
        body: { ...qrOf(), simScanUrl: 'http://127.0.0.1:9999/sim/scan?code_url=x' },
      }),
      [callKey(chargeCalls.paymentStatus)]: () => ({ status: 200, body: statusOf(confirmed ? 1 : 0) }),
      [callKey(chargeCalls.paidConfirm)]: () => {
        confirmed = true;
        return { status: 200, body: statusOf(1) };
      },
    });
    const link = await screen.findByTestId('sim-scan-link');
    expect(link.getAttribute('href')).toBe('http://127.0.0.1:9999/sim/scan?code_url=x');
    fireEvent.click(screen.getByRole('button', { name: 'I have paid' }));
    expect(await screen.findByText('Payment complete')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST' && r.path === 'charge/c1/paid-confirm')).toBe(true);
  });

  it.each([
    [errorAnswer(409, 'OrderAlreadyPaid'), 'This order has already been paid.'],
    [errorAnswer(502, 'PaymentChannelError'), 'The server is not responding. Please try again later.'],
    [errorAnswer(404, 'NotFound'), 'Something is wrong with this order.'],
  ])('says the §8 message for a failed QR (%j)', async (answer, text) => {
    openCharge('/charge/c1?token=tok1', {
      [callKey(chargeCalls.prePaidOrder)]: () => answer,
      [callKey(chargeCalls.paymentStatus)]: () => ({ status: 200, body: statusOf(0) }),
    });
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('refuses a stranger token with "no permission to pay"', async () => {
    openCharge('/charge/c1?token=other', {});
    expect(await screen.findByText('You have no permission to pay for this order.')).toBeTruthy();
  });

  it('without a token asks for the payment link and calls nothing', async () => {
    const { api } = openCharge('/charge/c1', {});
    expect(await screen.findByText('Open this page from the payment link you were given.')).toBeTruthy();
    expect(api.requests.filter((r) => r.path.startsWith('charge/'))).toEqual([]);
  });
});
