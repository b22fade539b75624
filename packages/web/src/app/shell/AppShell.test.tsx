// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ACCESS_TOKEN_KEY,
  CHARGE_TOKEN_KEY,
  defaultDomainConfig,
  type DomainConfig,
  type Group,
  type User,
} from '@yyp/contracts';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { currentLanguage } from '../../i18n';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeResponse } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

function server(
  domain: Partial<DomainConfig> = {},
  user: User = demoUser(),
  groups: Group[] = [],
  logoutAnswer: FakeResponse = { status: 204 },
) {
  let me = user;
  return installFakeApi({
    'POST accounts/logout': () => logoutAnswer,
    'GET groups/mine': () => ({ status: 200, body: groups }),
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, displayName: 'Test Hospital', ...domain } }),
    'GET accounts/me': () => ({ status: 200, body: me }),
    'PATCH accounts/me': (request) => {
      const body = request.body as Partial<User>;
      me = { ...me, ...body, preferences: { ...me.preferences, ...body.preferences } };
      return { status: 200, body: me };
    },
  });
}

/** Fake the inactivity check's interval and clock only; timeouts stay real for the UI to settle. */
function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
}

describe('signed-in shell', () => {
  it('shows the product, the existing navbar entries and the user', async () => {
    server();
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    expect(await screen.findByText('Dr. Li')).toBeTruthy();
    expect(screen.getByText('Test Hospital')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(nav.textContent).toContain('Report workstation');
    expect(nav.textContent).toContain('Settings');
  });

  it.each([
    ['a member', [0], ['Report workstation', 'My group', 'Settings', 'Learning videos', 'Help']],
    ['a group admin', [1], ['Report workstation', 'My group', 'Settings', 'Learning videos', 'Help']],
    ['an auditor', [9], ['Report workstation', 'My group', 'Operation logs', 'Settings', 'Learning videos', 'Help']],
    ['a security admin', [10], ['Report workstation', 'My group', 'Accounts', 'Settings', 'Learning videos', 'Help']],
    [
      'an auditor of one group and security admin of another',
      [9, 10],
      ['Report workstation', 'My group', 'Accounts', 'Operation logs', 'Settings', 'Learning videos', 'Help'],
    ],
  ])('shows %s the navbar entries of their levels', async (_who, levels, expected) => {
    server(
      {},
      demoUser(),
      levels.map((accessLevel, i) => groupOf({ id: `g${i}`, accessLevel })),
    );
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    await waitFor(() =>
      expect(
        within(nav)
          .getAllByRole('menuitem')
          .map((item) => item.textContent),
      ).toEqual(expected),
    );
  });

  it('logs out from the user menu: the server ends the session, then token, charge token and cached user go', async () => {
    const api = server();
    const token = tokenFor('doctor');
    sessionStore.signIn('doctor', token);
    sessionStorage.setItem(CHARGE_TOKEN_KEY, 'charge');
    const { router, queryClient } = renderApp('/studies');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByText('Log out'));
    // The login page is loaded on first use: allow for it.
    await screen.findByRole('button', { name: 'Log in' }, { timeout: 25_000 });
    const logouts = api.requests.filter((r) => r.method === 'POST' && r.path === 'accounts/logout');
    expect(logouts).toHaveLength(1);
    expect(logouts[0]!.headers.authorization).toBe(`Bearer ${token.accessToken}`);
    expect(locationOf(router)).toBe('/login');
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(CHARGE_TOKEN_KEY)).toBeNull();
    expect(queryClient.getQueryData(['accounts', 'me'])).toBeUndefined();
  });

  it('still logs out locally when the server refuses the logout, without the expiry dialog', async () => {
    server({}, demoUser(), [], errorAnswer(401, 'TokenExpiredError'));
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const { router } = renderApp('/studies');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByText('Log out'));
    await screen.findByRole('button', { name: 'Log in' });
    expect(locationOf(router)).toBe('/login');
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(sessionStore.getState().expiryDialogOpen).toBe(false);
  });

  it('logs out after the domain inactivity limit, on the server too, and offers to log in again', async () => {
    const api = server({ maxInactiveMinutes: 1 });
    useFakeClock();
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const { router } = renderApp('/settings/profile');
    await screen.findByDisplayValue('Dr. Li');

    act(() => {
      vi.advanceTimersByTime(60_000);
    });

    const notice = await screen.findByRole('dialog', { name: /You have been logged out/ });
    expect(notice.textContent).toContain('after 1 minutes without activity');
    expect(sessionStore.getState().session).toBeNull();
    expect(api.requests.some((r) => r.method === 'POST' && r.path === 'accounts/logout')).toBe(true);
    await waitFor(() => expect(locationOf(router)).toBe('/login?redirect=%2Fsettings%2Fprofile'));

    await userEvent.setup().click(screen.getByRole('button', { name: 'Log in again' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /You have been logged out/ })).toBeNull());
  });

  it('offers single sign-on users a close-page button with a hint instead', async () => {
    server({ maxInactiveMinutes: 1 }, demoUser({ loginType: 'sso' }));
    useFakeClock();
    sessionStore.signIn('doctor', tokenFor('doctor', 'sso'));
    renderApp('/studies');
    await screen.findByText('Dr. Li');
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    await screen.findByRole('dialog', { name: /You have been logged out/ });
    expect(screen.getByRole('button', { name: 'Close page' })).toBeTruthy();
    expect(screen.getByText('If the page does not close, please close the browser tab manually.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log in again' })).toBeNull();
  });

  it('saves a language switch as the user preference and keeps other preferences', async () => {
    const api = server({}, demoUser({ preferences: { imageColumn: 3 } }));
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    const user = userEvent.setup();
    await screen.findByText('Dr. Li');
    await user.click(screen.getByRole('button', { name: 'Language' }));
    await user.click(await screen.findByText('བོད་ཡིག'));
    expect(await screen.findByRole('heading', { name: 'སྙན་ཞུའི་ལས་སྟེགས།' })).toBeTruthy();
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'PATCH')?.body).toEqual({
        preferences: { imageColumn: 3, language: 'tib' },
      }),
    );
    expect(localStorage.getItem('yyp.language')).toBe('tib');
  });

  it("adopts the user's saved language when the profile arrives", async () => {
    server({}, demoUser({ preferences: { language: 'chs' } }));
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    expect(await screen.findByRole('heading', { name: '报告工作站' })).toBeTruthy();
    expect(currentLanguage()).toBe('chs');
  });
});
