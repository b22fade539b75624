// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type GlobalConfigValues } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

/** The "Global settings" tab of /settings/admin (issue 27): GET global-configs/query and PUT global-configs. */
function open() {
  let stored: GlobalConfigValues = {
    helpUrl: 'https://help.example.org',
    supportPhone: null,
    supportEmail: null,
    announcement: '周日维护',
  };
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({
      status: 200,
      body: demoUser({ id: 'u-admin', username: 'admin', isPlatformAdmin: true }),
    }),
    'POST admin/audit-logs/page-query': () => ({ status: 200, body: { logs: [], count: 0 } }),
    'GET global-configs/query': () => ({ status: 200, body: stored }),
    'PUT global-configs': (request) => {
      stored = { ...stored, ...(request.body as Partial<GlobalConfigValues>) };
      return { status: 200, body: stored };
    },
  });
  sessionStore.signIn('admin', tokenFor('admin'));
  renderApp('/settings/admin');
  return api;
}

describe('/settings/admin global settings', () => {
  it('shows the stored settings, checks each rule, and sends only what changed (an emptied field clears it)', async () => {
    const api = open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Global settings' }));
    const help = await screen.findByLabelText('Help address');
    await waitFor(() => expect((help as HTMLInputElement).value).toBe('https://help.example.org'));
    expect(new URLSearchParams(api.requests.find((r) => r.path === 'global-configs/query')!.search).get('keys')).toBe(
      'helpUrl,supportPhone,supportEmail,announcement',
    );

    await user.type(screen.getByLabelText('Support e-mail'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'PUT')).toBe(false);

    await user.clear(screen.getByLabelText('Support e-mail'));
    await user.type(screen.getByLabelText('Support e-mail'), 'support@example.org');
    await user.clear(screen.getByLabelText('Announcement'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Global settings saved.')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      supportEmail: 'support@example.org',
      announcement: null,
    });
  });
});
