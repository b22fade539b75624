// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, orderCalls } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { expertBucketOf } from '../../test/billingFixtures';
import { locationOf } from '../../test/renderApp';
import { examItemOf, openStudiesAs } from '../../test/studiesFixture';

function openStudies(actions: string[], experts: ReturnType<typeof expertBucketOf>[]) {
  return openStudiesAs({ username: 'doctor', name: 'Li', level: 'member', actions }, examItemOf(), {
    [callKey(orderCalls.expertBuckets)]: () => ({ status: 200, body: experts }),
  });
}

// Issue 24: the exam's menu leads to the apply page when the group has expert organizations.
describe('"Request expert report" in the exam menu', { timeout: 40_000 }, () => {
  it('is offered with apply_expert_report and expert organizations, and opens the apply page', async () => {
    const { router } = openStudies(['exam_get', 'apply_expert_report'], [expertBucketOf()]);
    await userEvent.setup().click(await screen.findByTestId('more-e1', {}, { timeout: 25_000 }));
    await userEvent.setup().click(await screen.findByText('Request expert report'));
    await waitFor(() => expect(locationOf(router)).toBe('/exams/e1/apply-report?type=expert'));
  });

  it('is not offered when the group has no expert organizations', async () => {
    const { api } = openStudies(['exam_get', 'apply_expert_report', 'exam_delete'], []);
    await userEvent.setup().click(await screen.findByTestId('more-e1', {}, { timeout: 25_000 }));
    await waitFor(() => expect(api.requests.some((r) => r.path === 'groups/g1/expert-buckets')).toBe(true));
    expect(await screen.findByText('Delete')).toBeTruthy();
    expect(screen.queryByText('Request expert report')).toBeNull();
  });

  it('is not offered, and nothing asked, without apply_expert_report', async () => {
    const { api } = openStudies(['exam_get', 'exam_delete'], [expertBucketOf()]);
    await userEvent.setup().click(await screen.findByTestId('more-e1', {}, { timeout: 25_000 }));
    expect(await screen.findByText('Delete')).toBeTruthy();
    expect(screen.queryByText('Request expert report')).toBeNull();
    expect(api.requests.some((r) => r.path.endsWith('expert-buckets'))).toBe(false);
  });

  it('offers "Request remote report" with apply_remote_report, opening the apply page for a remote read', async () => {
    const { router } = openStudies(['exam_get', 'apply_remote_report'], [expertBucketOf()]);
    await userEvent.setup().click(await screen.findByTestId('more-e1', {}, { timeout: 25_000 }));
    await userEvent.setup().click(await screen.findByText('Request remote report'));
    expect(screen.queryByText('Request expert report')).toBeNull();
    await waitFor(() => expect(locationOf(router)).toBe('/exams/e1/apply-report?type=remote'));
  });
});
