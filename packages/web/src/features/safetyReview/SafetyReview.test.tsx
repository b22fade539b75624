// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type CriticalValuePage, type QualityPage } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { buttonByText, findOverlay, findRow } from '../../test/queries';
import { locationOf, renderApp } from '../../test/renderApp';
import { criticalValuePageItemOf } from '../../test/safetyFixtures';
import { groupOf, organizationOf } from '../../test/tenancyFixtures';

function signedIn(path: string, actions: Record<string, string[]>, extra: Record<string, FakeHandler>) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'registrar', name: 'Zhao' }) }),
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
    'GET buckets/accessible': () => ({
      status: 200,
      body: [organizationOf({ id: 'b1', name: 'Radiology' }), organizationOf({ id: 'b2', name: 'Ultrasound' })],
    }),
    ...extra,
  });
  sessionStore.signIn('registrar', tokenFor('registrar'));
  return { api, ...renderApp(path) };
}

describe('/critical-values', () => {
  it('records the read-back from a row and shows the counts by state', { timeout: 30_000 }, async () => {
    let item = criticalValuePageItemOf();
    const page = (): CriticalValuePage => ({
      data: [item],
      count: 1,
      byStatus: { sent: item.status === 'sent' ? 1 : 0, received: item.status === 'received' ? 1 : 0, handled: 0 },
    });
    const { api } = signedIn(
      '/critical-values',
      { b1: ['exam_get', 'registry_create'] },
      {
        'POST critical-values/page-query': () => ({ status: 200, body: page() }),
        'POST reports/e1/critical-values/cv1/receive': (r) => {
          item = { ...item, ...(r.body as object), status: 'received', receivedAt: '2026-11-22T08:05:00.000Z' };
          return { status: 200, body: item };
        },
      },
    );
    // The first render loads the page's chunk: give it time.
    await screen.findByText('Tension pneumothorax', {}, { timeout: 15_000 });
    const row = await findRow('Tension pneumothorax');
    expect(within(row).getByText('Awaiting receipt')).toBeTruthy();
    expect(within(row).getByText('Z*o')).toBeTruthy();
    expect(within(screen.getByTestId('critical-stats')).getAllByText('1').length).toBeGreaterThan(0);
    // Without critical_value_stats no statistics call is made and no medians are shown.
    expect(api.requests.some((r) => r.path === 'statistics/critical-value')).toBe(false);
    expect(screen.queryByText('Median to handling')).toBeNull();

    const user = userEvent.setup();
    await user.click(buttonByText('Record receipt', row));
    const dialog = await findOverlay('Record the read-back of the ordering side');
    await user.type(within(dialog).getByLabelText('Received by'), 'Nurse Zhang');
    await user.type(within(dialog).getByLabelText('Read-back confirmed by'), 'Dr. Liu');
    await user.type(within(dialog).getByLabelText('Read-back'), 'Read back');
    await user.click(buttonByText('Record receipt', dialog));
    await waitFor(() =>
      expect(api.requests.find((r) => r.path.endsWith('/receive'))?.body).toEqual({
        receiver: 'Nurse Zhang',
        confirmor: 'Dr. Liu',
        readbackOpinion: 'Read back',
      }),
    );
    const updated = await findRow('Nurse Zhang');
    expect(within(updated).getByText('Received')).toBeTruthy();
    expect(within(updated).getByText('Mark handled')).toBeTruthy();
  });

  it('asks the statistics where the caller holds critical_value_stats; no follow-up buttons without the right', async () => {
    const { api } = signedIn(
      '/critical-values',
      { b1: ['exam_get', 'critical_value_stats'] },
      {
        'POST critical-values/page-query': () => ({
          status: 200,
          body: {
            data: [criticalValuePageItemOf({ canFollow: false })],
            count: 1,
            byStatus: { sent: 1, received: 0, handled: 0 },
          },
        }),
        'GET statistics/critical-value': () => ({
          status: 200,
          body: {
            bucketId: 'b1',
            from: '2026-10-23T00:00:00.000Z',
            to: '2026-11-22T00:00:00.000Z',
            total: 4,
            byStatus: { sent: 1, received: 1, handled: 2 },
            medianMinutesToReceive: 4.5,
            medianMinutesToHandle: 22,
          },
        }),
      },
    );
    const row = await findRow('Tension pneumothorax');
    // canFollow false: no follow-up buttons.
    expect(within(row).queryByText('Record receipt')).toBeNull();
    expect(await screen.findByText('22 min')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'statistics/critical-value')?.search).toContain('bucketId=b1');
  });

  it('shows the level in its own column, apart from the text, in the interface language', async () => {
    const page: CriticalValuePage = {
      data: [
        criticalValuePageItemOf(),
        criticalValuePageItemOf({ id: 'cv2', text: 'Aortic dissection', level: '低' }),
        criticalValuePageItemOf({ id: 'cv3', text: 'Stroke', level: '' }),
      ],
      count: 3,
      byStatus: { sent: 3, received: 0, handled: 0 },
    };
    signedIn(
      '/critical-values',
      { b1: ['exam_get'] },
      { 'POST critical-values/page-query': () => ({ status: 200, body: page }) },
    );
    const row = await findRow('Tension pneumothorax');
    const header = [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    const levelColumn = header.indexOf('Level');
    expect(levelColumn).toBe(header.indexOf('Critical value') + 1);
    const cells = (r: HTMLElement) => [...r.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells(row)[levelColumn]).toBe('High');
    expect(cells(row)[levelColumn - 1]).toBe('Tension pneumothorax');
    // A level word stored before levels were keys is shown translated too; none shows a dash.
    expect(cells(await findRow('Aortic dissection'))[levelColumn]).toBe('Low');
    expect(cells(await findRow('Stroke'))[levelColumn]).toBe('—');
  });

  it('shows a failed load with a retry', async () => {
    signedIn(
      '/critical-values',
      { b1: ['exam_get'] },
      { 'POST critical-values/page-query': () => errorAnswer(500, 'UnknownError') },
    );
    expect(await screen.findByText('Retry')).toBeTruthy();
  });
});

describe('/quality', () => {
  const graded: QualityPage = {
    data: [
      {
        reportId: 'e9',
        bucketId: 'b2',
        bucketName: 'Ultrasound',
        level: 'C',
        suggestion: 'State the size',
        unsatisfactoryItems: ['Incomplete conclusion'],
        creator: { id: 'u2', name: 'Dr. Wang' },
        createdAt: '2026-11-22T08:00:00.000Z',
        updatedAt: '2026-11-22T08:00:00.000Z',
        patientName: 'Z*o',
        modality: 'CT',
        bodyPart: 'CHEST',
        studyDate: '20261122',
        reportStatus: 'corrected',
      },
    ],
    count: 1,
  };

  it('lists the grades of all organizations the caller reviews by default; a row opens its report', async () => {
    const { api, router } = signedIn(
      '/quality',
      { b1: ['exam_get', 'quality_stats'], b2: ['quality_upsert'] },
      { 'POST quality/page-query': () => ({ status: 200, body: graded }) },
    );
    const row = await findRow('State the size');
    expect(within(row).getByText('Incomplete conclusion')).toBeTruthy();
    expect(within(row).getByText('Dr. Wang')).toBeTruthy();
    expect(within(row).getByText('Ultrasound')).toBeTruthy();
    // No organization named: the server answers for every one where the caller reviews quality.
    expect(await screen.findByText('All organizations', { selector: '.ant-select *' })).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'quality/page-query')?.search).toBe('');
    await userEvent.setup().click(within(row).getByText('State the size'));
    await waitFor(() => expect(locationOf(router)).toBe('/studies/e9/reports/e9'));
  });

  it('says so when the caller reviews quality nowhere, and asks nothing', async () => {
    const { api } = signedIn('/quality', { b1: ['exam_get'] }, {});
    expect(await screen.findByText('You review quality in no organization.')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'quality/page-query')).toBe(false);
  });

  it('shows an empty list', async () => {
    signedIn(
      '/quality',
      { b2: ['quality_delete'] },
      { 'POST quality/page-query': () => ({ status: 200, body: { data: [], count: 0 } }) },
    );
    expect(await screen.findByText('No graded reports match.')).toBeTruthy();
  });
});
