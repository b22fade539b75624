// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { defaultDomainConfig } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';
import { safeRedirectTarget } from './guards';

function serverWithUser() {
  return installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
  });
}

describe('routes that need login', () => {
  it('send a signed-out visitor to /login with the target path and query', async () => {
    serverWithUser();
    const { router } = renderApp('/settings/profile?tab=password');
    await screen.findByRole('button', { name: 'Log in' });
    expect(locationOf(router)).toBe('/login?redirect=%2Fsettings%2Fprofile%3Ftab%3Dpassword');
  });

  it('send / to /studies and then, signed out, to /login?redirect=/studies', async () => {
    serverWithUser();
    const { router } = renderApp('/');
    await screen.findByRole('button', { name: 'Log in' });
    expect(locationOf(router)).toBe('/login?redirect=%2Fstudies');
  });

  it('treat a token whose local expiry has passed as signed out', async () => {
    serverWithUser();
    sessionStore.signIn('doctor', tokenFor('doctor', 'normal', -5));
    const { router } = renderApp('/studies');
    await screen.findByRole('button', { name: 'Log in' });
    expect(locationOf(router)).toBe('/login?redirect=%2Fstudies');
  });

  it('let a signed-in user in, and /settings opens the profile', async () => {
    serverWithUser();
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const { router } = renderApp('/settings');
    await screen.findByRole('heading', { name: 'Profile' });
    expect(locationOf(router)).toBe('/settings/profile');
    await waitFor(() => expect(screen.getByDisplayValue('Dr. Li')).toBeTruthy());
  });

  it('show the report workstation with its empty state', async () => {
    serverWithUser();
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    expect(await screen.findByText('No exams yet')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Patient' })).toBeTruthy();
  });
});

describe('public routes', () => {
  it('show not found for unknown paths', async () => {
    serverWithUser();
    renderApp('/no/such/page');
    expect(await screen.findByText('Page not found')).toBeTruthy();
  });

  it('send /register to /404 when the domain does not allow registration', async () => {
    serverWithUser();
    const { router } = renderApp('/register');
    await screen.findByText('Page not found');
    expect(locationOf(router)).toBe('/404');
  });

  it('show /register when the domain allows it', async () => {
    installFakeApi({
      'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, allowRegistration: true } }),
    });
    const { router } = renderApp('/register');
    expect(await screen.findByRole('heading', { name: 'Create an account' })).toBeTruthy();
    expect(locationOf(router)).toBe('/register');
  });
});

describe('safeRedirectTarget', () => {
  it('accepts same-site paths only', () => {
    expect(safeRedirectTarget('/settings/profile?x=1')).toBe('/settings/profile?x=1');
    expect(safeRedirectTarget(null)).toBe('/studies');
    expect(safeRedirectTarget('https://evil.example/')).toBe('/studies');
    expect(safeRedirectTarget('//evil.example/')).toBe('/studies');
  });
});
