// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type DicomRefusal, type Group } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { buttonByText } from '../../test/queries';
import { renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

function signedIn(path: string, groups: Group[], platformAdmin: boolean, extra: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({
      status: 200,
      body: demoUser({ id: 'u-x', username: 'someone', isPlatformAdmin: platformAdmin }),
    }),
    'GET groups/mine': () => ({ status: 200, body: groups }),
    ...extra,
  });
  sessionStore.signIn('someone', tokenFor('someone'));
  return { api, ...renderApp(path) };
}

const stranger: DicomRefusal = {
  id: 7,
  at: '2026-11-22T08:00:00.000Z',
  callingAe: 'STRANGER',
  calledAe: 'YYP',
  peerAddress: '10.0.0.9',
  reason: 'callingAe',
  outcome: 'denied',
  organization: null,
};
const ours: DicomRefusal = {
  ...stranger,
  id: 8,
  callingAe: 'DEMO_MODALITY',
  calledAe: 'NOT_YYP',
  reason: 'calledAe',
  organization: { id: 'b1', name: 'Radiology' },
};

describe('/dicom-refusals', () => {
  it('is refused to users who are neither platform admin nor auditor', async () => {
    signedIn('/dicom-refusals', [groupOf({ accessLevel: 1 })], false);
    expect(await screen.findByText('No access to refused DICOM associations')).toBeTruthy();
  });

  it('lists every refusal to the platform admin, reachable from the navigation, and filters by AE title', async () => {
    const { api } = signedIn('/studies', [], true, {
      'POST admin/dicom-associations/page-query': () => ({ status: 200, body: { refusals: [stranger], count: 1 } }),
      'POST exams/page-query': () => ({ status: 200, body: { exams: [], count: 0 } }),
    });
    const user = userEvent.setup();
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const entry = await waitFor(() => within(nav).getByText('DICOM refusals'));
    await user.click(entry);
    const row = (await screen.findByText('STRANGER')).closest('tr') as HTMLElement;
    expect(within(row).getByText('YYP')).toBeTruthy();
    expect(within(row).getByText('10.0.0.9')).toBeTruthy();
    expect(within(row).getByText('The calling AE title is not registered')).toBeTruthy();
    expect(within(row).getByText('Refused')).toBeTruthy();
    expect(screen.getByText('All (platform)')).toBeTruthy();

    await user.type(screen.getByLabelText('AE title'), 'strang');
    await user.click(buttonByText('Search'));
    await waitFor(() =>
      expect(api.requests.filter((r) => r.path === 'admin/dicom-associations/page-query').at(-1)?.body).toEqual({
        aeTitle: 'strang',
        skip: 0,
        limit: 20,
      }),
    );
  });

  it("shows a group's auditor the refusals of its AE titles, opened from the operation log", async () => {
    const { api } = signedIn('/logs', [groupOf({ accessLevel: 9 })], false, {
      'POST domains/audit-logs': () => ({ status: 200, body: { logs: [], count: 0 } }),
      'GET groups/g1/organizations': () => ({ status: 200, body: [] }),
      'POST groups/g1/dicom-associations/page-query': () => ({ status: 200, body: { refusals: [ours], count: 1 } }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Refused DICOM associations/ }));
    // Not in the navigation: the auditor comes through the operation log.
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByText('Operation logs')).toBeTruthy();
    expect(within(nav).queryByText('DICOM refusals')).toBeNull();
    const row = (await screen.findByText('DEMO_MODALITY')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Radiology')).toBeTruthy();
    expect(within(row).getByText('The called AE title is not this server’s')).toBeTruthy();
    expect(screen.getByText(/organizations of Renhe Hospital/)).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'admin/dicom-associations/page-query')).toBe(false);
  });
});
