// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type Group, type User } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { findRow } from '../../test/queries';
import { locationOf, renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

function openGroups(user: User, groups: Group[]) {
  installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: user }),
    'GET groups/mine': () => ({ status: 200, body: groups }),
  });
  sessionStore.signIn(user.username, tokenFor(user.username));
  return renderApp('/groups');
}

describe('/groups', () => {
  it('lists my groups with my level', async () => {
    openGroups(demoUser(), [groupOf({ accessLevel: 9, memberCount: 12 })]);
    const row = await findRow('Renhe Hospital');
    expect(within(row).getByText('Auditor')).toBeTruthy();
    expect(within(row).getByText('12')).toBeTruthy();
    expect(screen.queryByText('Create group')).toBeNull();
  });

  it('offers to create a group when the account may', async () => {
    const { router } = openGroups(demoUser({ canCreateGroup: true }), []);
    expect(await screen.findByText('You do not belong to any group yet')).toBeTruthy();
    const buttons = await screen.findAllByText('Create group', { selector: 'button span' });
    await userEvent.setup().click(buttons[0] as HTMLElement);
    await screen.findByText('Check account', { selector: '.ant-steps *' });
    expect(locationOf(router)).toBe('/groups/create');
  });

  it('explains why it cannot when group creation is not unlocked', async () => {
    openGroups(demoUser({ canCreateGroup: false }), []);
    expect(await screen.findByText(/Group creation is not unlocked for your account/)).toBeTruthy();
    expect(screen.queryByText('Create group', { selector: 'button span' })).toBeNull();
  });
});
