// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  callKey,
  chargeCalls,
  creditCalls,
  creditChargeCalls,
  defaultDomainConfig,
  orderCalls,
  requestPaymentCalls,
  type Order,
} from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { orderOf } from '../../test/billingFixtures';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

function openPay(order: () => Order, handlers: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, enablePaymentService: true } }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    'GET accounts/me/permissions': () => ({ status: 200, body: [] }),
    [callKey(orderCalls.requestDetail)]: () => ({ status: 200, body: order() }),
    ...handlers,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  return { api, ...renderApp('/exams/e1/apply-report/o1?type=expert') };
}

const status = (paymentStatus: 0 | 1) => ({
  id: 'pay1',
  paymentNo: 'P1',
  status: paymentStatus ? 'paid' : 'pending',
  paymentStatus,
  paidAt: paymentStatus ? '2026-11-27T10:00:00Z' : null,
});

describe('/exams/:examId/apply-report/:applicationId', () => {
  it('shows the order and its WeChat QR (the requester’s request/{id} calls with the bearer), then paid', async () => {
    let paid = false;
    const { api } = openPay(() => orderOf(paid ? { paymentStatus: 1, channel: 'weixin', paidFen: 12_550 } : {}), {
      [callKey(requestPaymentCalls.prePaidOrder)]: () => ({
        status: 200,
        body: {
          id: 'pay1',
          paymentNo: 'P1',
          codeUrl: 'weixin://wxpay/bizpayurl?pr=o1',
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
          expired: false,
          amountFen: 12_550,
          currency: 'CNY',
        },
      }),
      [callKey(requestPaymentCalls.paymentStatus)]: () => ({ status: 200, body: status(paid ? 1 : 0) }),
      [callKey(requestPaymentCalls.paidConfirm)]: () => {
        paid = true;
        return { status: 200, body: status(1) };
      },
    });
    expect(await screen.findByText('R20261127001')).toBeTruthy();
    expect(screen.getByText('Zhang San')).toBeTruthy();
    expect((await screen.findByTestId('payment-qr')).getAttribute('data-code-url')).toBe(
      'weixin://wxpay/bizpayurl?pr=o1',
    );
    fireEvent.click(screen.getByRole('button', { name: 'I have paid' }));
    expect(await screen.findByText('Payment complete')).toBeTruthy();
    const qr = api.requests.find((r) => r.path === 'request/o1/pre-paid-order');
    expect(qr?.headers.authorization).toMatch(/^Bearer /);
  });

  it('an order that needs no payment says it went to the experts, and leads back to the list', async () => {
    const { router } = openPay(() => orderOf({ needsPayment: false, priceFen: 0 }));
    expect(await screen.findByText('This order needs no payment: it has gone to the experts.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to the study list' }));
    await waitFor(() => expect(locationOf(router)).toBe('/studies'));
  });

  it("a consultation's fee shows its kind and leads back to its consultation, not to the study list", async () => {
    let paid = false;
    const fee = () =>
      orderOf({
        type: 'consultation',
        consultationId: 'c1',
        productName: 'Expert consultation',
        priceFen: 8000,
        ...(paid ? { paymentStatus: 1, channel: 'weixin', paidFen: 8000, needsPayment: false } : {}),
      });
    const { router } = openPay(fee, {
      [callKey(requestPaymentCalls.prePaidOrder)]: () => ({
        status: 200,
        body: {
          id: 'pay1',
          paymentNo: 'P1',
          codeUrl: 'weixin://wxpay/bizpayurl?pr=o1',
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
          expired: false,
          amountFen: 8000,
          currency: 'CNY',
        },
      }),
      [callKey(requestPaymentCalls.paymentStatus)]: () => ({ status: 200, body: status(paid ? 1 : 0) }),
      [callKey(requestPaymentCalls.paidConfirm)]: () => {
        paid = true;
        return { status: 200, body: status(1) };
      },
    });
    expect(await screen.findByText('Consultation')).toBeTruthy();
    expect(screen.getByText('Expert consultation')).toBeTruthy();
    // while unpaid, the way back to the consultation is a link in the card's corner
    expect(screen.getByRole('link', { name: 'Back to the consultation' }).getAttribute('href')).toBe(
      '/consultations/c1',
    );
    await screen.findByTestId('payment-qr');
    fireEvent.click(screen.getByRole('button', { name: 'I have paid' }));
    // the order read again is settled: its one way on is back to the consultation
    const back = await screen.findByRole('button', { name: 'Back to the consultation' });
    expect(screen.getByTestId('payment-paid').textContent).toContain('Payment complete');
    expect(screen.queryByRole('button', { name: 'Back to the study list' })).toBeNull();
    fireEvent.click(back);
    await waitFor(() => expect(locationOf(router)).toBe('/consultations/c1'));
  });

  it('a paid order says so and asks for no QR', async () => {
    const { api } = openPay(() =>
      orderOf({ paymentStatus: 1, channel: 'weixin', paidFen: 12_550, needsPayment: false }),
    );
    expect(await screen.findByText('Payment complete')).toBeTruthy();
    expect(api.requests.some((r) => r.path.includes('pre-paid-order'))).toBe(false);
  });

  it('pays from the group balance: create-token, then credits/charge with that single-use bearer', async () => {
    let paid = false;
    const { api } = openPay(() => orderOf(paid ? { paymentStatus: 1, channel: 'credit', paidFen: 12_550 } : {}), {
      [callKey(requestPaymentCalls.prePaidOrder)]: () => ({
        status: 502,
        body: { code: 'PaymentChannelError', message: 'x' },
      }),
      [callKey(requestPaymentCalls.paymentStatus)]: () => ({ status: 200, body: status(0) }),
      [callKey(creditCalls.bucketCredit)]: () => ({
        status: 200,
        body: {
          groupId: 'g1',
          bucketId: 'b1',
          enabled: true,
          amountFen: 50_000,
          currency: 'CNY',
          balances: [{ currency: 'CNY', amountFen: 50_000 }],
        },
      }),
      [callKey(creditCalls.createToken)]: () => ({
        status: 200,
        body: {
          token: 'ct-1',
          expiresAt: '2026-11-27T10:05:00Z',
          amountFen: 12_550,
          currency: 'CNY',
          balanceFen: 50_000,
        },
      }),
      [callKey(creditChargeCalls.charge)]: (r) => {
        if (r.headers['charge-authorization'] !== 'Bearer ct-1') {
          return { status: 401, body: { code: 'Unauthenticated', message: 'x' } };
        }
        paid = true;
        return {
          status: 200,
          body: { paymentNo: 'P9', orderId: 'o1', amountFen: 12_550, currency: 'CNY', balanceFen: 37_450 },
        };
      },
    });
    fireEvent.click(await screen.findByText('Group balance'));
    expect((await screen.findByTestId('credit-balance')).textContent).toBe('Group balance: ¥500.00');
    fireEvent.click(screen.getByRole('button', { name: 'Pay ¥125.50 from the balance' }));
    expect(await screen.findByText('Payment complete')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'credits/create-token')?.body).toEqual({ orderId: 'o1' });
    expect(api.requests.find((r) => r.path === 'credits/charge')?.headers['idempotency-key']).toMatch(/^web-/);
  });

  it('a balance short of the price cannot pay', async () => {
    openPay(() => orderOf(), {
      [callKey(requestPaymentCalls.prePaidOrder)]: () => ({
        status: 502,
        body: { code: 'PaymentChannelError', message: 'x' },
      }),
      [callKey(requestPaymentCalls.paymentStatus)]: () => ({ status: 200, body: status(0) }),
      [callKey(creditCalls.bucketCredit)]: () => ({
        status: 200,
        body: {
          groupId: 'g1',
          bucketId: 'b1',
          enabled: true,
          amountFen: 100,
          currency: 'CNY',
          balances: [{ currency: 'CNY', amountFen: 100 }],
        },
      }),
    });
    fireEvent.click(await screen.findByText('Group balance'));
    const button = await screen.findByRole('button', { name: 'Pay ¥125.50 from the balance' });
    expect(button.hasAttribute('disabled')).toBe(true);
  });

  it('makes a payment link for another device (charge/apply-charge → /charge/{id}?token=…)', async () => {
    const { api } = openPay(() => orderOf(), {
      [callKey(requestPaymentCalls.prePaidOrder)]: () => ({
        status: 502,
        body: { code: 'PaymentChannelError', message: 'x' },
      }),
      [callKey(requestPaymentCalls.paymentStatus)]: () => ({ status: 200, body: status(0) }),
      [callKey(chargeCalls.apply)]: () => ({
        status: 201,
        body: { id: 'c9', token: 'tk+1', tokenExpires: 4_000_000_000 },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Payment link for another device' }));
    const link = await screen.findByTestId<HTMLInputElement>('payment-link');
    expect(link.value).toBe(`${window.location.origin}/charge/c9?token=tk%2B1`);
    expect(api.requests.find((r) => r.path === 'charge/apply-charge')?.body).toEqual({ orderId: 'o1' });
  });
});
