// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type User, type WxLink } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

// Issue 27: the WeChat card of /settings/mobile, and "WeChat-login users cannot change their password".

function open(path: string, user: User, link: WxLink, extra: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: user }),
    'GET accounts/me/wx': () => ({ status: 200, body: link }),
    ...extra,
  });
  sessionStore.signIn(user.username, tokenFor(user.username, user.loginType));
  renderApp(path);
  return api;
}

const linked = (canUnlink: boolean): WxLink => ({
  linked: true,
  nickname: '张医生',
  headimgurl: null,
  linkedAt: '2026-11-01T08:00:00.000Z',
  canUnlink,
});

describe('the WeChat card of /settings/mobile', () => {
  it('shows the linked WeChat and unlinks it', async () => {
    let current = linked(true);
    const api = open('/settings/mobile', demoUser(), current, {
      'GET accounts/me/wx': () => ({ status: 200, body: current }),
      'DELETE accounts/me/wx': () => {
        current = { linked: false, nickname: null, headimgurl: null, linkedAt: null, canUnlink: false };
        return { status: 204 };
      },
    });
    expect(await screen.findByText(/Linked to WeChat “张医生”/)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByText('Unlink WeChat'));
    await user.click(await screen.findByText('OK'));
    await waitFor(() =>
      expect(api.requests.some((r) => r.method === 'DELETE' && r.path === 'accounts/me/wx')).toBe(true),
    );
    expect(await screen.findByText(/No WeChat is linked/)).toBeTruthy();
  });

  it('offers no unlink to an account without a password', async () => {
    open('/settings/mobile', demoUser({ hasPassword: false }), linked(false));
    expect(await screen.findByText(/signs in with WeChat only/)).toBeTruthy();
    expect(screen.queryByText('Unlink WeChat')).toBeNull();
  });
});

describe('the password card of a WeChat-only account', () => {
  it('says there is no password to change', async () => {
    open('/settings/profile', demoUser({ hasPassword: false }), linked(false));
    expect(await screen.findByText(/signs in with WeChat and has no password to change/)).toBeTruthy();
  });
});
