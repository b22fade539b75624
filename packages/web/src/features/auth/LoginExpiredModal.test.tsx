// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type RecordedRequest } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';

/** A server that rejects the first token and accepts the one handed out by login-in. */
function serverWithExpiredToken(loginType: 'normal' | 'sso' = 'normal') {
  const fresh = tokenFor('doctor', loginType);
  const me = (request: RecordedRequest) =>
    request.headers.authorization === `Bearer ${fresh.accessToken}`
      ? { status: 200, body: demoUser({ loginType }) }
      : errorAnswer(401, 'TokenExpiredError');
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': me,
    'POST accounts/login-in': (request) =>
      (request.body as { password?: string }).password === 'Yyp@2026'
        ? { status: 200, body: fresh }
        : errorAnswer(401, 'WrongCredentials'),
  });
  return { api, fresh };
}

describe('login-expired dialog', () => {
  it('asks for the password, refuses empty and wrong ones, and restores the session in place', async () => {
    const { api, fresh } = serverWithExpiredToken();
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const { router } = renderApp('/settings/profile');
    const user = userEvent.setup();

    const dialog = await screen.findByRole('dialog', { name: 'Login expired' });
    expect(dialog.textContent).toContain('doctor');
    expect(sessionStore.getAccessToken()).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please fill in the required fields.')).toBeTruthy();

    const password = screen.getByLabelText('Password');
    await user.type(password, 'wrong-one{Enter}');
    expect(await screen.findByText('Verification failed. Please check the password.')).toBeTruthy();
    expect(sessionStore.getState().expiryDialogOpen).toBe(true);

    await user.clear(password);
    await user.type(password, 'Yyp@2026');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Login expired' })).toBeNull());
    expect(sessionStore.getAccessToken()).toBe(fresh.accessToken);
    expect(await screen.findByDisplayValue('Dr. Li')).toBeTruthy();
    expect(locationOf(router)).toBe('/settings/profile');
    const logins = api.requests.filter((r) => r.path === 'accounts/login-in');
    expect(logins.at(-1)?.body).toEqual({ username: 'doctor', password: 'Yyp@2026' });
  });

  it('offers to log in with another account instead', async () => {
    serverWithExpiredToken();
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const { router } = renderApp('/studies');
    const user = userEvent.setup();
    // The study list is a large module: the first import in jsdom takes a few seconds. Its
    // components take the test-mode element ids too, so the dialog is found by its title text.
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    expect(within(dialog).getByText('Login expired')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Log in with another account' }));
    // The login page is a route module of its own, loaded on first visit (seconds under load).
    await screen.findByRole('button', { name: 'Log in' }, { timeout: 10_000 });
    expect(locationOf(router)).toBe('/login?redirect=%2Fstudies');
    expect(sessionStore.getState().session).toBeNull();
  });

  it('sends a single sign-on user to /login without the dialog', async () => {
    serverWithExpiredToken('sso');
    sessionStore.signIn('doctor', tokenFor('doctor', 'sso'));
    const { router } = renderApp('/studies');
    await screen.findByRole('button', { name: 'Log in' }, { timeout: 10_000 });
    expect(locationOf(router)).toBe('/login');
    expect(screen.queryByRole('dialog', { name: 'Login expired' })).toBeNull();
  });
});
