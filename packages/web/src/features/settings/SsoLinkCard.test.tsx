// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type SsoLinks } from '@yyp/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

// Issue 27: a password account links its group's single sign-on from /settings/mobile.

function open(path: string, links: () => SsoLinks, extra: Record<string, FakeHandler> = {}) {
  const user = demoUser();
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: user }),
    'GET accounts/me/wx': () => ({
      status: 200,
      body: { linked: false, nickname: null, headimgurl: null, linkedAt: null, canUnlink: false },
    }),
    'GET accounts/me/sso': () => ({ status: 200, body: links() }),
    ...extra,
  });
  sessionStore.signIn(user.username, tokenFor(user.username, user.loginType));
  renderApp(path);
  return api;
}

const offered: SsoLinks = { linked: [], offered: [{ groupId: 'g-a', label: '甲城医院' }], hasPassword: true };
const linkedA = (hasPassword: boolean): SsoLinks => ({
  linked: [
    {
      groupId: 'g-a',
      label: '甲城医院',
      issuer: 'https://idp.example.org',
      linkedAt: '2026-11-01T08:00:00.000Z',
      lastLoginAt: null,
    },
  ],
  offered: [],
  hasPassword,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the single sign-on card of /settings/mobile', () => {
  it('starts the link at the group’s provider', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = open('/settings/mobile', () => offered, {
      'POST accounts/me/sso/:groupId/link': (req) => ({
        status: 200,
        body: { providers: [], url: `https://idp.example.org/auth?group=${req.params.groupId}` },
      }),
    });
    await userEvent.setup().click(await screen.findByText('Link with 甲城医院'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example.org/auth?group=g-a'));
    expect(api.requests.some((r) => r.method === 'POST' && r.path === 'accounts/me/sso/g-a/link')).toBe(true);
  });

  it('shows the link made, says so on return from the provider, and unlinks it', async () => {
    let current = linkedA(true);
    open('/settings/mobile?linked=sso', () => current, {
      'DELETE accounts/me/sso/:groupId': () => {
        current = offered;
        return { status: 204 };
      },
    });
    expect(await screen.findByText(/Linked with 甲城医院 since/)).toBeTruthy();
    expect(screen.getByText('Your account is now linked: next time sign in with one click.')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByText('Unlink'));
    await user.click(await screen.findByText('OK'));
    expect(await screen.findByText('Link with 甲城医院')).toBeTruthy();
  });

  it('offers no unlink to an account without a password', async () => {
    open('/settings/mobile', () => linkedA(false));
    expect(await screen.findByText(/its single sign-on cannot be unlinked/)).toBeTruthy();
    expect(screen.queryByText('Unlink')).toBeNull();
  });
});
