// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type Group, type User } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../../test/fakeApi';
import { locationOf, renderApp } from '../../../test/renderApp';
import { groupOf } from '../../../test/tenancyFixtures';

function openWizard(user: User, groups: Group[], extra: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: user }),
    'GET groups/mine': () => ({ status: 200, body: groups }),
    ...extra,
  });
  sessionStore.signIn(user.username, tokenFor(user.username));
  const view = renderApp('/groups/create');
  return { api, ...view };
}

describe('group creation wizard, step 1', () => {
  it('says clearly when group creation is not unlocked', async () => {
    openWizard(demoUser({ canCreateGroup: false }), []);
    expect(
      await screen.findByText(
        'Group creation is not unlocked for this account. Ask the platform administrator to unlock it.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('You do not belong to any group yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
  });

  it('says clearly when the user already belongs to a group', async () => {
    openWizard(demoUser({ canCreateGroup: true }), [groupOf({ displayName: 'Renhe Hospital' })]);
    expect(
      await screen.findByText(
        'You already belong to Renhe Hospital. An account can create a group only while it belongs to none.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to my group' }).getAttribute('href')).toBe('/groups/g1');
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
  });
});

describe('group creation wizard, steps 2 and 3', () => {
  const created = groupOf({ id: 'g-new', displayName: 'New Hospital', memberCount: 1, organizationCount: 0 });

  function server() {
    const groups: Group[] = [];
    return openWizard(demoUser({ canCreateGroup: true }), groups, {
      'GET groups/available': (request) => {
        const name = new URLSearchParams(request.search).get('name');
        return { status: 200, body: { available: name !== 'Taken Hospital' } };
      },
      'POST groups': () => {
        groups.push(created);
        return { status: 201, body: created };
      },
      'GET groups/g-new': () => ({ status: 200, body: created }),
      'POST groups/g-new/members/create-account': (request) => {
        const body = request.body as { username: string; name: string; accessLevel: number };
        return {
          status: 201,
          body: { accountId: 'u-new', ...body, disabled: 0, joinedAt: '2026-02-01T00:00:00.000Z' },
        };
      },
    });
  }

  it('checks the name while it is typed, refuses a taken one and creates the group', async () => {
    const { api, router } = server();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Next' }));

    const name = await screen.findByLabelText('Group name');
    await user.type(name, 'Taken Hospital');
    expect(await screen.findByText('The name is not available.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create group' })).toHaveProperty('disabled', true);

    await user.clear(name);
    await user.type(name, 'New Hospital');
    expect(await screen.findByText('The name is available.')).toBeTruthy();
    // Asked once the typing paused, not once per key.
    const checks = api.requests.filter((r) => r.path === 'groups/available').map((r) => r.search);
    expect(checks).toContain('?name=New+Hospital');
    expect(checks).not.toContain('?name=New+Hospit');

    await user.type(name, '{Enter}');
    expect(await screen.findByText('Invite colleagues')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'POST' && r.path === 'groups')?.body).toEqual({
      displayName: 'New Hospital',
    });

    // Step 3: create an account for a colleague.
    await user.click(screen.getByRole('tab', { name: 'Create an account' }));
    await user.type(screen.getByLabelText('Username'), 'wang');
    await user.type(screen.getByLabelText('Name'), 'Dr. Wang');
    await user.type(screen.getByLabelText('Initial password'), 'Start2026!');
    // Icon buttons are named with their icon first ("user-add Create account").
    await user.click(screen.getByRole('button', { name: /Create account$/ }));
    expect(await screen.findByText('Account wang created.')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'groups/g-new/members/create-account')?.body).toEqual({
      username: 'wang',
      name: 'Dr. Wang',
      password: 'Start2026!',
      accessLevel: 0,
    });
    expect(await screen.findByRole('cell', { name: 'Dr. Wang' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await screen.findByRole('heading', { name: 'New Hospital' });
    expect(locationOf(router)).toBe('/groups/g-new');
    // the whole wizard in one case: 20 s alone on a busy 2-core machine, so a wider guard than the default
  }, 60_000);

  it('shows the server refusal when the name was taken meanwhile', async () => {
    openWizard(demoUser({ canCreateGroup: true }), [], {
      'GET groups/available': () => ({ status: 200, body: { available: true } }),
      'POST groups': () => errorAnswer(409, 'NameNotAvailable'),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.type(await screen.findByLabelText('Group name'), 'Late Hospital');
    await screen.findByText('The name is available.');
    await user.click(screen.getByRole('button', { name: 'Create group' }));
    expect(await screen.findByText('The name is not available.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Invite colleagues')).toBeNull());
  });
});
