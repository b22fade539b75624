// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type Group } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import type { AuditLog, RealmAccount } from '../../api/contractTypes';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { buttonByText, findOverlay, findRow } from '../../test/queries';
import { renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

function signedIn(path: string, groups: Group[], extra: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ id: 'u-sec', username: 'secadmin', name: 'Zheng' }) }),
    'GET groups/mine': () => ({ status: 200, body: groups }),
    ...extra,
  });
  sessionStore.signIn('secadmin', tokenFor('secadmin'));
  const view = renderApp(path);
  return { api, ...view };
}

function account(overrides: Partial<RealmAccount> = {}): RealmAccount {
  return {
    id: 'u-doctor',
    username: 'doctor',
    name: 'Dr. Li',
    disabled: 0,
    locked: false,
    groups: [{ id: 'g1', displayName: 'Renhe Hospital', accessLevel: 0 }],
    ...overrides,
  };
}

describe('/accounts', () => {
  const secGroup = groupOf({ accessLevel: 10 });

  it('is refused to users who are no security admin anywhere', async () => {
    signedIn('/accounts', [groupOf({ accessLevel: 9 })]);
    expect(await screen.findByText('No account administration')).toBeTruthy();
  });

  it('disables an account after confirmation and unlocks a locked one', async () => {
    let accounts = [account(), account({ id: 'u-tech', username: 'tech', name: 'Tech Zhang', locked: true })];
    const { api } = signedIn('/accounts', [secGroup], {
      'POST accounts/query-in-realm': () => ({ status: 200, body: { accounts, count: accounts.length } }),
      'POST accounts/u-doctor/status': () => {
        accounts = accounts.map((a) => (a.id === 'u-doctor' ? { ...a, disabled: 1 } : a));
        return { status: 200, body: { id: 'u-doctor', disabled: 1 } };
      },
      'POST accounts/u-tech/actions/unlock': () => {
        accounts = accounts.map((a) => (a.id === 'u-tech' ? { ...a, locked: false } : a));
        return { status: 200, body: {} };
      },
    });
    const user = userEvent.setup();
    const doctor = await findRow('doctor');
    expect(within(doctor).getByText('Active')).toBeTruthy();
    expect(buttonByText('Unlock', doctor).disabled).toBe(true);
    await user.click(buttonByText('Disable', doctor));
    const confirm = await findOverlay('Disable Dr. Li?');
    expect(within(confirm).getByText(/every session it has ends at once/)).toBeTruthy();
    await user.click(buttonByText('Disable', confirm));
    expect(await screen.findByText('Dr. Li disabled.')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'accounts/u-doctor/status')?.body).toEqual({ status: 1 });
    await waitFor(async () => expect(within(await findRow('doctor')).getByText('Disabled')).toBeTruthy());

    const tech = await findRow('tech');
    expect(within(tech).getByText('Locked')).toBeTruthy();
    await user.click(buttonByText('Unlock', tech));
    expect(await screen.findByText('The login lock of Tech Zhang was cleared.')).toBeTruthy();
    expect(api.requests.find((r) => r.path.endsWith('/query-in-realm'))?.search).toBe('?groupId=g1');
  });

  it('shows a reset temporary password once', async () => {
    signedIn('/accounts', [secGroup], {
      'POST accounts/query-in-realm': () => ({ status: 200, body: { accounts: [account()], count: 1 } }),
      'POST accounts/u-doctor/actions/reset-password': () => ({
        status: 200,
        body: { temporaryPassword: 'Yyabc123#9' },
      }),
    });
    const user = userEvent.setup();
    await user.click(buttonByText('Reset password', await findRow('doctor')));
    await user.click(buttonByText('Reset password', await findOverlay('Reset the password of Dr. Li?')));
    const shown = await findOverlay('Temporary password');
    expect(within(shown).getByText('Yyabc123#9')).toBeTruthy();
    expect(within(shown).getByText(/It is shown only once/)).toBeTruthy();
    await user.click(buttonByText('Confirm', shown));
    await waitFor(() => expect(screen.queryByText('Yyabc123#9')).toBeNull());
  });

  it('does not offer to disable one’s own account', async () => {
    signedIn('/accounts', [secGroup], {
      'POST accounts/query-in-realm': () => ({
        status: 200,
        body: { accounts: [account({ id: 'u-sec', username: 'secadmin', name: 'Zheng' })], count: 1 },
      }),
    });
    expect(buttonByText('Disable', await findRow('secadmin')).disabled).toBe(true);
  });
});

describe('/logs', () => {
  const log: AuditLog = {
    id: 7,
    at: '2026-03-01T02:03:04.000Z',
    actorId: 'u-admin',
    actorUsername: 'groupadmin',
    action: 'group.member.add',
    targetType: 'account',
    targetId: 'u-doctor',
    bucketId: null,
    ip: '10.0.0.8',
    outcome: 'success',
    details: { accessLevel: 0 },
  };

  it('is refused to users who are no auditor anywhere', async () => {
    signedIn('/logs', [groupOf({ accessLevel: 10 })]);
    expect(await screen.findByText('No operation logs')).toBeTruthy();
  });

  it('lists the log with the raw action code and its description, and filters it', async () => {
    const { api } = signedIn('/logs', [groupOf({ accessLevel: 9 })], {
      'POST domains/audit-logs': () => ({
        status: 200,
        body: { logs: [log, { ...log, id: 8, action: 'bucket.tags.add', outcome: 'denied' }], count: 2 },
      }),
      'GET groups/g1/organizations': () => ({ status: 200, body: [] }),
    });
    const user = userEvent.setup();
    const row = (await screen.findByText('group.member.add')).closest('tr') as HTMLElement;
    expect(within(row).getByText('groupadmin')).toBeTruthy();
    expect(within(row).getByText('Added a group member')).toBeTruthy();
    expect(within(row).getByText('10.0.0.8')).toBeTruthy();
    expect(within(row).getByText('Success')).toBeTruthy();
    expect(screen.getByText('Added a dictionary item · Tags')).toBeTruthy();
    expect(screen.getByText('Denied')).toBeTruthy();

    await user.type(screen.getByLabelText('Action'), 'account.');
    await user.click(buttonByText('Search'));
    await waitFor(() =>
      expect(api.requests.filter((r) => r.path === 'domains/audit-logs').at(-1)?.body).toEqual({
        action: 'account.',
        skip: 0,
        limit: 20,
      }),
    );
    expect(api.requests.find((r) => r.path === 'domains/audit-logs')?.search).toBe('?groupId=g1');
  });
});
