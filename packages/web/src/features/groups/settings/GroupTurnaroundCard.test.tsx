// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { callKey, defaultDomainConfig, groupCalls, type Group } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../../test/fakeApi';
import { renderApp } from '../../../test/renderApp';
import { groupOf } from '../../../test/tenancyFixtures';

/** A group admin's settings tab; the fake keeps the group's settings as saved. */
function openSettings(settings: Group['settings']) {
  let group: Group = groupOf({ settings });
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'groupadmin', name: 'Zhou' }) }),
    'GET groups/mine': () => ({ status: 200, body: [group] }),
    'GET groups/g1': () => ({ status: 200, body: group }),
    [callKey(groupCalls.update)]: (r) => {
      const body = r.body as { settings?: Group['settings'] };
      group = { ...group, settings: { ...group.settings, ...body.settings } };
      return { status: 200, body: group };
    },
    'GET groups/g1/organizations': () => ({ status: 200, body: [] }),
  });
  sessionStore.signIn('groupadmin', tokenFor('groupadmin'));
  renderApp('/groups/g1?tab=settings');
  const saved = () =>
    api.requests.filter((r) => r.path === 'groups/g1/update' && r.method === 'POST').map((r) => r.body as unknown);
  return { saved };
}

async function findCard(): Promise<HTMLElement> {
  return (await screen.findByText('Turnaround target', {}, { timeout: 15_000 })).closest('.ant-card')! as HTMLElement;
}

describe('group settings: turnaround target', { timeout: 40_000 }, () => {
  it('sets the minutes from registration to approval, and clears them for no target', async () => {
    const { saved } = openSettings({ enableStat: true });
    const card = await findCard();
    expect(within(card).getByText(/from registration to the approved report/)).toBeTruthy();
    const input = within(card).getByLabelText('Target (minutes)') as HTMLInputElement;
    expect(input.value).toBe('');
    expect(input.placeholder).toBe('No target');
    fireEvent.change(input, { target: { value: '240' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved()).toEqual([{ settings: { turnaroundTargetMinutes: 240 } }]));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();

    fireEvent.change(within(card).getByLabelText('Target (minutes)'), { target: { value: '' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved()).toHaveLength(2));
    expect(saved()[1]).toEqual({ settings: { turnaroundTargetMinutes: null } });
  });

  it("shows the group's target and keeps the minutes within one minute to one week", async () => {
    const { saved } = openSettings({ turnaroundTargetMinutes: 480 });
    const card = await findCard();
    const input = within(card).getByLabelText('Target (minutes)') as HTMLInputElement;
    await waitFor(() => expect(input.value).toBe('480'));
    fireEvent.change(input, { target: { value: '20000' } });
    fireEvent.blur(input);
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved()).toEqual([{ settings: { turnaroundTargetMinutes: 10080 } }]));
  });
});
