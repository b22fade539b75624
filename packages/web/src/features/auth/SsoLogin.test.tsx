// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig } from '@yyp/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';

// Issue 27: "Sign in with <hospital>" on /login (one click leaves for the group's provider), and
// /loginCallback, which finishes the sign-in with GET auth/token and starts an sso session.

const domain = () => ({ status: 200, body: { ...defaultDomainConfig, displayName: 'Test Hospital' } });

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('single sign-on on the login page', () => {
  it('offers the enabled providers and starts the chosen one with one click', async () => {
    const api = installFakeApi({
      'GET domain': domain,
      'GET accounts/auth': (request) => {
        const q = new URLSearchParams(request.search);
        return q.get('groupId')
          ? { status: 200, body: { providers: [], url: `https://idp.example/auth?group=${q.get('groupId')}` } }
          : { status: 200, body: { providers: [{ groupId: 'g-renhe', label: 'Renhe Hospital' }], url: null } };
      },
    });
    renderApp('/login?redirect=%2Fregistry');
    const button = await screen.findByRole('button', { name: /Sign in with Renhe Hospital/ });
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as Location);
    await userEvent.setup().click(button);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example/auth?group=g-renhe'));
    const start = api.requests.find((r) => r.path === 'accounts/auth' && r.search.includes('groupId'))!;
    expect(new URLSearchParams(start.search).get('redirect')).toBe('/registry');
    expect(start.headers.authorization).toBeUndefined();
  });

  it('shows no button when no provider is enabled', async () => {
    installFakeApi({
      'GET domain': domain,
      'GET accounts/auth': () => ({ status: 200, body: { providers: [], url: null } }),
    });
    renderApp('/login');
    await screen.findByLabelText('Username');
    expect(screen.queryByRole('button', { name: /Sign in with/ })).toBeNull();
  });
});

describe('/loginCallback', () => {
  it('finishes the sign-in once, stores an sso session and opens the page it was started from', async () => {
    const api = installFakeApi({
      'GET domain': domain,
      'GET auth/token': () => ({
        status: 200,
        body: { ...tokenFor('li_na', 'sso'), username: 'li_na', groupId: 'g-renhe', redirect: '/settings/profile' },
      }),
      'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'li_na', loginType: 'sso' }) }),
    });
    const { router } = renderApp('/loginCallback?code=c-1&state=s-1&iss=https%3A%2F%2Fidp.example');
    await waitFor(() => expect(locationOf(router)).toBe('/settings/profile'));
    expect(sessionStore.getState().session).toMatchObject({ username: 'li_na', loginType: 'sso' });
    const calls = api.requests.filter((r) => r.path === 'auth/token');
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(calls[0]!.search))).toEqual({
      code: 'c-1',
      state: 's-1',
      iss: 'https://idp.example',
    });
    expect(localStorage.getItem('yyp.ssoGroup')).toBe('g-renhe');
  });

  it('says why a refused sign-in failed, and offers the login page', async () => {
    installFakeApi({
      'GET domain': domain,
      'GET auth/token': () => errorAnswer(400, 'SsoStateInvalid'),
    });
    renderApp('/loginCallback?code=c-2&state=s-2');
    expect(await screen.findByText(/unknown, was already used or has expired/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the login page' })).toBeTruthy();
  });

  it('shows the provider’s refusal without calling the server', async () => {
    const api = installFakeApi({ 'GET domain': domain });
    renderApp('/loginCallback?error=access_denied&state=s-3');
    expect(await screen.findByText(/cancelled or refused/)).toBeTruthy();
    expect(api.requests.filter((r) => r.path === 'auth/token')).toHaveLength(0);
  });
});
