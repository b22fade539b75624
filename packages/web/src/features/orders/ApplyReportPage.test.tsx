// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { callKey, defaultDomainConfig, examCalls, orderCalls } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { expertBucketOf, orderOf, productOf } from '../../test/billingFixtures';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { examDetailOf } from '../../test/reportEditorFixture';
import { locationOf, renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

function openApply(path: string, handlers: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, enablePaymentService: true } }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ mobile: '13800000000' }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: [{ bucketId: 'b1', groupId: 'g1', type: 1, accessLevel: 'member', actions: ['apply_expert_report'] }],
    }),
    [callKey(examCalls.detail)]: () => ({ status: 200, body: examDetailOf() }),
    [callKey(orderCalls.remoteReport)]: () => ({ status: 200, body: { order: null } }),
    [callKey(orderCalls.expertBuckets)]: (r) =>
      r.params.groupId === 'g1'
        ? {
            status: 200,
            body: [
              expertBucketOf(),
              expertBucketOf({ bucketId: 'x2', bucketName: 'Free Readers', paid: false, isDefault: false }),
            ],
          }
        : errorAnswer(404, 'NotFound'),
    [callKey(orderCalls.products)]: (r) => ({
      status: 200,
      body: r.search.includes('bucketId=x1')
        ? [productOf(), productOf({ id: 'p2', name: 'Retired read', active: false })]
        : [
            productOf({
              id: 'p3',
              bucketId: 'x2',
              name: 'Free read',
              priceFen: 0,
              turnaroundMinutes: null,
              breachCreditBp: 0,
            }),
          ],
    }),
    ...handlers,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  return { api, ...renderApp(path) };
}

describe('/exams/:examId/apply-report', () => {
  it("lists the group's expert organizations and the default one's active products with price and turnaround, and applies", async () => {
    const { api, router } = openApply('/exams/e1/apply-report?type=expert', {
      [callKey(orderCalls.apply)]: () => ({ status: 201, body: orderOf() }),
    });
    expect(await screen.findByText('Request an expert report')).toBeTruthy();
    expect(await screen.findByText('CT expert read')).toBeTruthy();
    expect(screen.getByText('¥125.50')).toBeTruthy();
    expect(screen.getByText('report within 2 h 0 min')).toBeTruthy();
    expect(screen.getByText('20% back if late')).toBeTruthy();
    expect(screen.queryByText('Retired read')).toBeNull();
    expect(screen.getByText('Free Readers')).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Applicant mobile').value).toBe('13800000000'));

    fireEvent.click(screen.getByText('CT expert read'));
    fireEvent.change(screen.getByLabelText('Reason for the request'), { target: { value: ' second opinion ' } });
    fireEvent.click(screen.getByTestId('apply-submit'));
    await waitFor(() => expect(locationOf(router)).toBe('/exams/e1/apply-report/o1?type=expert'));
    const apply = api.requests.find((r) => r.path === 'request/apply');
    expect(apply?.body).toEqual({
      examId: 'e1',
      productId: 'p1',
      targetBucketId: 'x1',
      reason: 'second opinion',
      applicantMobile: '13800000000',
      applicantEmail: '',
    });
  });

  it('switching organization shows its products; a remote read applies through apply-remote-report', async () => {
    const { api } = openApply('/exams/e1/apply-report?type=remote', {
      [callKey(orderCalls.applyRemote)]: () => ({ status: 201, body: orderOf({ type: 'remote' }) }),
    });
    expect(await screen.findByText('Request a remote report')).toBeTruthy();
    fireEvent.click(await screen.findByText('Free Readers'));
    fireEvent.click(await screen.findByText('Free read'));
    expect(screen.getByText('¥0.00')).toBeTruthy();
    expect(screen.getByText('no promised turnaround')).toBeTruthy();
    fireEvent.click(screen.getByTestId('apply-submit'));
    await waitFor(() => expect(api.requests.some((r) => r.path === 'request/apply-remote-report')).toBe(true));
    expect(api.requests.find((r) => r.path === 'products' && r.search.includes('x2'))?.search).toContain('type=2');
  });

  it('needs a product and a mobile before it applies', async () => {
    const { api } = openApply('/exams/e1/apply-report');
    await screen.findByText('CT expert read');
    fireEvent.change(screen.getByLabelText('Applicant mobile'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('apply-submit'));
    expect(await screen.findByText('Choose a service')).toBeTruthy();
    expect(await screen.findByText('Applicant mobile is required')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'request/apply')).toBe(false);
  });

  it('an exam that already has an order shows it instead of the form (once per exam)', async () => {
    const { router } = openApply('/exams/e1/apply-report', {
      [callKey(orderCalls.remoteReport)]: () => ({ status: 200, body: { order: orderOf() } }),
    });
    expect(await screen.findByText('Order R20261127001 already exists for this exam.')).toBeTruthy();
    expect(screen.queryByTestId('apply-submit')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open the order' }));
    await waitFor(() => expect(locationOf(router)).toBe('/exams/e1/apply-report/o1'));
  });

  it('a refused application says why (AlreadyApplied)', async () => {
    openApply('/exams/e1/apply-report', {
      [callKey(orderCalls.apply)]: () => errorAnswer(409, 'AlreadyApplied'),
    });
    fireEvent.click(await screen.findByText('CT expert read'));
    fireEvent.click(screen.getByTestId('apply-submit'));
    expect((await screen.findAllByText(/already/i)).length).toBeGreaterThan(0);
  });

  it('a group without expert organizations says so', async () => {
    openApply('/exams/e1/apply-report', {
      [callKey(orderCalls.expertBuckets)]: () => ({ status: 200, body: [] }),
    });
    expect(await screen.findByText('Your group has no expert organizations to order from.')).toBeTruthy();
  });
});
