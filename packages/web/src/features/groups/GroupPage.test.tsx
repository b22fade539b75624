// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type Group, type Organization } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { buttonByText, findButtonByText, findOverlay, findRow } from '../../test/queries';
import { renderApp } from '../../test/renderApp';
import { groupMemberOf, groupOf, organizationOf } from '../../test/tenancyFixtures';

function openGroup(path: string, group: Group, extra: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ id: 'u-admin', username: 'admin1', name: 'Zhou' }) }),
    'GET groups/mine': () => ({ status: 200, body: [group] }),
    [`GET groups/${group.id}`]: () => ({ status: 200, body: group }),
    ...extra,
  });
  sessionStore.signIn('admin1', tokenFor('admin1'));
  const view = renderApp(path);
  return { api, ...view };
}

describe('group page', () => {
  it('shows the overview with counts, my level and the features that are on', async () => {
    openGroup('/groups/g1', groupOf({ accessLevel: 0, memberCount: 8, organizationCount: 3 }));
    expect(await screen.findByRole('heading', { name: 'Renhe Hospital' })).toBeTruthy();
    expect(screen.getByText('8')).toBeTruthy();
    expect(screen.getByText('3')).toBeTruthy();
    expect(screen.getAllByText('Member').length).toBeGreaterThan(0);
    const features = screen.getByLabelText('Features');
    expect(within(features).getByText('Registry').closest('.yyp-flag--on')).toBeTruthy();
    expect(within(features).getByText('Telemedicine').closest('.yyp-flag--off')).toBeTruthy();
    // Members see no settings tab.
    expect(screen.queryByText('Settings', { selector: '.ant-tabs-tab *' })).toBeNull();
  });

  it('says so when the group is not the caller’s', async () => {
    openGroup('/groups/nope', groupOf(), { 'GET groups/nope': () => errorAnswer(404, 'NotFound') });
    expect(await screen.findByText('Group not found')).toBeTruthy();
  });

  it('lets an admin create an organization, showing a taken code on its field', async () => {
    const orgs: Organization[] = [];
    let attempts = 0;
    const { api } = openGroup('/groups/g1?tab=organizations', groupOf(), {
      'GET groups/g1/organizations': () => ({ status: 200, body: orgs }),
      'POST groups/g1/organizations': (request) => {
        attempts += 1;
        if (attempts === 1) {
          return errorAnswer(409, 'CodeTaken');
        }
        const created = organizationOf({ id: 'b2', ...(request.body as object) });
        orgs.push(created);
        return { status: 201, body: created };
      },
    });
    const user = userEvent.setup();
    await user.click(await findButtonByText('New organization'));
    const modal = await findOverlay('New organization');
    await user.type(within(modal).getByLabelText('Name'), 'Ultrasound');
    await user.type(within(modal).getByLabelText('Code'), 'a b');
    await user.click(buttonByText('Create', modal));
    expect(await within(modal).findByText('Use 4 to 35 letters, digits, dashes or underscores.')).toBeTruthy();

    await user.clear(within(modal).getByLabelText('Code'));
    await user.type(within(modal).getByLabelText('Code'), 'RH-US');
    await user.click(within(modal).getByLabelText('Private'));
    await user.click(buttonByText('Create', modal));
    expect(await within(modal).findByText('This code is already in use.')).toBeTruthy();

    await user.type(within(modal).getByLabelText('Code'), '2{Enter}');
    expect(await screen.findByText('Organization Ultrasound created.')).toBeTruthy();
    expect(
      api.requests.filter((r) => r.path === 'groups/g1/organizations' && r.method === 'POST').at(-1)?.body,
    ).toEqual({ name: 'Ultrasound', code: 'RH-US2', isPrivate: true });
    expect(await findRow('Ultrasound')).toBeTruthy();
  });

  it('deletes an organization only after its name is typed', async () => {
    const { api } = openGroup('/groups/g1?tab=organizations', groupOf(), {
      'GET groups/g1/organizations': () => ({ status: 200, body: [organizationOf()] }),
      'DELETE buckets/b1': () => ({ status: 204 }),
    });
    const user = userEvent.setup();
    const row = await findRow('Radiology');
    await user.click(buttonByText('Delete', row));
    const modal = await findOverlay('Delete organization');
    const confirm = buttonByText('Delete organization', modal);
    expect(confirm.disabled).toBe(true);
    await user.type(within(modal).getByPlaceholderText('Type the name exactly'), 'Radiology');
    expect(confirm.disabled).toBe(false);
    await user.click(confirm);
    expect(await screen.findByText('Organization Radiology deleted.')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'DELETE')?.body).toEqual({ confirmName: 'Radiology' });
  });

  it('explains that the last administrator cannot be removed', async () => {
    const me = groupMemberOf({ accountId: 'u-admin', username: 'admin1', name: 'Zhou', accessLevel: 1 });
    openGroup('/groups/g1?tab=people', groupOf(), {
      'POST groups/g1/members/query': () => ({ status: 200, body: { members: [me, groupMemberOf()], count: 2 } }),
      'DELETE groups/g1/members/u-admin': () => errorAnswer(409, 'LastAdmin'),
    });
    const user = userEvent.setup();
    const row = await findRow('admin1');
    expect(within(row).getByText('You')).toBeTruthy();
    await user.click(buttonByText('Remove', row));
    const popup = (await screen.findByText('Remove Zhou from the group?')).closest('.ant-popover') as HTMLElement;
    await user.click(buttonByText('Remove', popup));
    expect(await screen.findByText('The last administrator cannot be removed or demoted.')).toBeTruthy();
  });

  it('saves the feature flags and deletes the group by its name', async () => {
    let group = groupOf();
    const { api, router } = openGroup('/groups/g1?tab=settings', group, {
      'GET groups/g1': () => ({ status: 200, body: group }),
      'POST groups/g1/update': (request) => {
        const body = request.body as { settings?: object };
        group = { ...group, settings: { ...group.settings, ...body.settings } };
        return { status: 200, body: group };
      },
      'GET groups/g1/rules': () => ({ status: 200, body: [] }),
      'GET groups/g1/color-rules': () => ({ status: 200, body: [] }),
      'GET groups/g1/organizations': () => ({ status: 200, body: [] }),
      'POST groups/g1/members/query': () => ({ status: 200, body: { members: [], count: 0 } }),
      'DELETE groups/g1': () => ({ status: 204 }),
    });
    const user = userEvent.setup();
    const telemedicine = await screen.findByLabelText('Telemedicine');
    await user.click(telemedicine);
    const features = (await screen.findByText('Switch the optional features of the group on or off.')).closest(
      '.ant-card',
    ) as HTMLElement;
    await user.click(buttonByText('Save', features));
    await screen.findByText('Settings saved.');
    const saved = api.requests.find((r) => r.path === 'groups/g1/update')?.body as {
      settings: Record<string, unknown>;
    };
    expect(saved.settings.openTelemed).toBe(true);
    expect(saved.settings.enableRegistry).toBe(true);
    expect(saved.settings.dobMatchMode).toBe('shift_off');

    await user.click(buttonByText('Delete group'));
    const modal = await findOverlay('Delete group');
    await user.type(within(modal).getByPlaceholderText('Type the name exactly'), 'Renhe Hospital{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/groups'));
    expect(api.requests.find((r) => r.method === 'DELETE' && r.path === 'groups/g1')?.body).toEqual({
      confirmName: 'Renhe Hospital',
    });
  });
});
