// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { callKey, consultationCalls, type ConsultationDetail, type ConsultationFee } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { locationOf } from '../../test/renderApp';
import { detailOf, openConsultations } from './consultationFixtures';

/** The fee of a consultation whose target sells them (issue 25): ¥80.00 for a consultation, order C1, unpaid. */
function feeOf(overrides: Partial<ConsultationFee> = {}): ConsultationFee {
  return {
    orderId: 'o9',
    orderNo: 'C20261127001',
    examId: 'e1',
    productName: 'Expert consultation',
    priceFen: 8000,
    currency: 'CNY',
    paymentStatus: 0,
    paidAt: null,
    ...overrides,
  };
}

function openDetail(detail: ConsultationDetail, handlers: Parameters<typeof openConsultations>[1] = {}) {
  return openConsultations(`/consultations/${detail.id}`, {
    [callKey(consultationCalls.detail)]: () => ({ status: 200, body: detail }),
    ...handlers,
  });
}

/** The request card's Descriptions value under a label. */
async function valueOf(label: string): Promise<HTMLElement> {
  const th = await screen.findByText(label, { selector: '.ant-descriptions-item-label' }, { timeout: 15_000 });
  return th
    .closest<HTMLElement>('.ant-descriptions-item')!
    .querySelector<HTMLElement>('.ant-descriptions-item-content')!;
}

describe('/consultations/{id}: the fee', { timeout: 40_000 }, () => {
  it('shows the requester the unpaid fee (service, price, status, order no.) and the way to pay it', async () => {
    const { router } = openDetail(detailOf({ fee: feeOf(), paymentStatus: 0, roles: ['requester'] }));
    expect((await valueOf('Payment')).textContent).toBe('Unpaid');
    expect((await valueOf('Fee')).textContent).toBe('Expert consultation · ¥80.00');
    expect((await valueOf('Order no.')).textContent).toBe('C20261127001');
    const notice = screen.getByTestId('consultation-fee-notice');
    expect(notice.textContent).toContain('The consultation fee is not paid yet');
    const pay = within(notice).getByRole('link', { name: 'Pay the fee' });
    expect(pay.getAttribute('href')).toBe('/exams/e1/apply-report/o9');
    fireEvent.click(pay);
    await waitFor(() => expect(locationOf(router)).toBe('/exams/e1/apply-report/o9'));
  });

  it('tells the target that the experts accept it once the requester has paid, with nothing to pay', async () => {
    openDetail(
      detailOf({
        fee: feeOf({ examId: '' }),
        paymentStatus: 0,
        roles: ['target'],
        can: ['view', 'print', 'setMembers', 'cancel'],
      }),
    );
    const notice = await screen.findByTestId('consultation-fee-notice', {}, { timeout: 15_000 });
    expect(notice.textContent).toBe(
      'The requester has not paid the consultation fee yet; the experts can accept it once it is paid: ¥80.00',
    );
    expect(screen.queryByRole('link', { name: 'Pay the fee' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Accept and schedule/ })).toBeNull();
  });

  it('a free consultation says Free and shows no fee', async () => {
    openDetail(detailOf({ fee: null, paymentStatus: null }));
    expect((await valueOf('Payment')).textContent).toBe('Free');
    expect(screen.queryByText('Fee', { selector: '.ant-descriptions-item-label' })).toBeNull();
    expect(screen.queryByText('Order no.', { selector: '.ant-descriptions-item-label' })).toBeNull();
    expect(screen.queryByTestId('consultation-fee-notice')).toBeNull();
  });

  it('a canceled consultation offers no payment', async () => {
    openDetail(detailOf({ status: 3, fee: feeOf(), paymentStatus: 0, roles: ['requester'] }));
    expect((await valueOf('Payment')).textContent).toBe('Unpaid');
    expect(screen.queryByRole('link', { name: 'Pay the fee' })).toBeNull();
    expect(screen.queryByTestId('consultation-fee-notice')).toBeNull();
  });

  it('a paid fee shows Paid with its time, and tells the requester it is refunded before cancelling', async () => {
    openDetail(
      detailOf({
        fee: feeOf({ paymentStatus: 1, paidAt: '2026-11-27T09:30:00.000Z' }),
        paymentStatus: 1,
        roles: ['requester'],
        can: ['view', 'print', 'update'],
      }),
    );
    expect((await valueOf('Payment')).textContent).toMatch(/^Paid\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(screen.queryByRole('link', { name: 'Pay the fee' })).toBeNull();
    expect(screen.getByTestId('consultation-fee-notice').textContent).toBe(
      'The fee is paid: to cancel the consultation, ask the target organization to refund the fee first.',
    );
  });

  it('says why the experts cannot accept yet when the server refuses it unpaid (409 ConsultationUnpaid)', async () => {
    openDetail(detailOf({ fee: null, roles: ['target'], can: ['view', 'print', 'schedule'] }), {
      [callKey(consultationCalls.status)]: () => ({
        status: 409,
        body: { code: 'ConsultationUnpaid', message: "The consultation's fee is not paid yet" },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: /Accept and schedule/ }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /Accept and schedule/ }));
    expect(
      await screen.findByText(
        'The consultation fee is not paid yet: the experts can accept it once the requester has paid.',
      ),
    ).toBeTruthy();
  });
});
