// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';

function server(handlers: Record<string, FakeHandler>) {
  return installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, allowRegistration: true } }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    ...handlers,
  });
}

describe('register', () => {
  it('says which fields are required, checks the confirmation and the terms', async () => {
    const api = server({});
    renderApp('/register');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByText('Please read and accept the terms of service.')).toBeTruthy();

    await user.type(screen.getByLabelText('Password'), 'Newcomer2026');
    await user.type(screen.getByLabelText('Confirm password'), 'Newcomer2025');
    expect(await screen.findByText('The two passwords do not match.')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'accounts' && r.method === 'POST')).toBe(false);
  });

  it('creates the account, signs it in and shows a taken username on its field', async () => {
    let calls = 0;
    const token = tokenFor('newcomer');
    const api = server({
      'POST accounts': () => (++calls === 1 ? errorAnswer(409, 'UsernameTaken') : { status: 201, body: token }),
    });
    const { router } = renderApp('/register');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), ' newcomer ');
    await user.type(screen.getByLabelText('Name'), 'New Colleague');
    await user.type(screen.getByLabelText('Password'), 'Newcomer2026');
    await user.type(screen.getByLabelText('Confirm password'), 'Newcomer2026');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('This username is already taken.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByText('No exams yet');
    expect(locationOf(router)).toBe('/studies');
    expect(api.requests.filter((r) => r.path === 'accounts').at(-1)?.body).toEqual({
      username: 'newcomer',
      name: 'New Colleague',
      password: 'Newcomer2026',
    });
    expect(sessionStore.getAccessToken()).toBe(token.accessToken);
  });
});

describe('forget password', () => {
  async function lookUp(username: string) {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), username);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    return user;
  }

  it('shows the masked mobile and a lasting notice when SMS is not configured', async () => {
    server({
      'GET accounts/doctor/mobile': () => ({ status: 200, body: { mobile: '138****8000' } }),
      'POST accounts/doctor/code/reset-password': () => errorAnswer(503, 'ServiceNotConfigured'),
    });
    renderApp('/forget-password');
    const user = await lookUp('doctor');
    expect(await screen.findByText('The verification code will be sent to 138****8000.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('SMS service unavailable');
    expect(alert.textContent).toContain('This service is not configured on this site.');
  });

  it('explains when no mobile is bound and cannot send a code', async () => {
    server({ 'GET accounts/nomobile/mobile': () => ({ status: 200, body: { mobile: null } }) });
    renderApp('/forget-password');
    await lookUp('nomobile');
    expect(await screen.findByText(/No mobile number is bound to this account/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send code' })).toHaveProperty('disabled', true);
  });

  it('resets the password with the code and returns to login', async () => {
    const api = server({
      'GET accounts/doctor/mobile': () => ({ status: 200, body: { mobile: '138****8000' } }),
      'POST accounts/doctor/code/reset-password': () => ({ status: 204 }),
      'POST accounts/doctor/password/reset': () => ({ status: 204 }),
    });
    const { router } = renderApp('/forget-password');
    const user = await lookUp('doctor');
    await user.click(await screen.findByRole('button', { name: 'Send code' }));
    await user.type(await screen.findByLabelText('Verification code'), ' 123456 ');
    await user.type(screen.getByLabelText('New password'), 'Better2026!');
    await user.type(screen.getByLabelText('Confirm new password'), 'Better2026!');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await screen.findByRole('button', { name: 'Log in' });
    expect(locationOf(router)).toBe('/login');
    expect(api.requests.find((r) => r.path === 'accounts/doctor/password/reset')?.body).toEqual({
      code: '123456',
      password: 'Better2026!',
    });
  });
});

describe('password expired (/change-password)', () => {
  it('sets the new password with update-password, signs in and goes on', async () => {
    const token = tokenFor('senior');
    const api = server({ 'POST accounts/update-password': () => ({ status: 200, body: token }) });
    const { router } = renderApp('/change-password?username=senior&redirect=%2Fsettings%2Fprofile');
    const user = userEvent.setup();
    expect(await screen.findByLabelText('Username')).toHaveProperty('readOnly', true);
    await user.type(screen.getByLabelText('Current password'), 'Yyp@2026');
    await user.type(screen.getByLabelText('New password'), 'Better2026!');
    await user.type(screen.getByLabelText('Confirm new password'), 'Better2026!');
    await user.click(screen.getByRole('button', { name: 'Set password and log in' }));
    await screen.findByRole('heading', { name: 'Profile' });
    expect(locationOf(router)).toBe('/settings/profile');
    expect(api.requests.find((r) => r.path === 'accounts/update-password')?.body).toEqual({
      username: 'senior',
      oldPwd: 'Yyp@2026',
      newPwd: 'Better2026!',
    });
    await waitFor(() => expect(sessionStore.getAccessToken()).toBe(token.accessToken));
  });
});
