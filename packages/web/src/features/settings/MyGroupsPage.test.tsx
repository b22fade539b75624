// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type Group } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { buttonByText, findOverlay, findRow } from '../../test/queries';
import { renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

describe('/settings/groups', () => {
  it('lists my groups with my level and leaves one after confirmation', async () => {
    let groups: Group[] = [groupOf({ accessLevel: 0 })];
    const api = installFakeApi({
      'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
      'GET accounts/me': () => ({ status: 200, body: demoUser() }),
      'GET groups/mine': () => ({ status: 200, body: groups }),
      'POST groups/g1/quit': () => {
        groups = [];
        return { status: 204 };
      },
    });
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/settings/groups');
    const user = userEvent.setup();
    const row = await findRow('Renhe Hospital');
    expect(within(row).getByText('Member')).toBeTruthy();
    await user.click(buttonByText('Leave', row));
    await user.click(buttonByText('Leave', await findOverlay('Leave Renhe Hospital?')));
    expect(await screen.findByText('You left Renhe Hospital.')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('You do not belong to any group.')).toBeTruthy());
    expect(api.requests.some((r) => r.path === 'groups/g1/quit')).toBe(true);
  });
});

describe('my permissions on the profile page', () => {
  it('lists, per organization, my level and the translated actions', async () => {
    installFakeApi({
      'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
      'GET accounts/me': () => ({ status: 200, body: demoUser() }),
      'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
      'GET accounts/me/organizations': () => ({
        status: 200,
        body: [{ id: 'b1', name: 'Radiology', groupId: 'g1', accessLevel: 'member' }],
      }),
      'GET accounts/me/permissions': () => ({
        status: 200,
        body: [
          { bucketId: 'b1', groupId: 'g1', type: 1, accessLevel: 'member', actions: ['exam_get', 'report_upsert'] },
        ],
      }),
    });
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/settings/profile');
    const row = await findRow('Radiology');
    expect(within(row).getByText('Renhe Hospital')).toBeTruthy();
    expect(within(row).getByText('Member')).toBeTruthy();
    expect(within(row).getByText('Exams')).toBeTruthy();
    expect(within(row).getByText('View exams')).toBeTruthy();
    expect(within(row).getByText('Write reports')).toBeTruthy();
  });
});
