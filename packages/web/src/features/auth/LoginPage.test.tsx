// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACCESS_TOKEN_KEY, defaultDomainConfig } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';

function server(login: FakeHandler, extra: Record<string, FakeHandler> = {}) {
  return installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, displayName: 'Test Hospital' } }),
    'POST accounts/login-in': login,
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    ...extra,
  });
}

async function fillAndSubmit(username: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), username);
  await user.type(screen.getByLabelText('Password'), `${password}{Enter}`);
}

describe('LoginPage', () => {
  it('takes a platform admin in no organization to the platform administration, others to the study list', async () => {
    const admin = demoUser({ id: 'u-admin', username: 'admin', isPlatformAdmin: true });
    server(() => ({ status: 200, body: tokenFor('admin') }), {
      'GET accounts/me': () => ({ status: 200, body: admin }),
      'GET accounts/me/organizations': () => ({ status: 200, body: [] }),
    });
    const { router } = renderApp('/login');
    await fillAndSubmit('admin', 'Yyp@2026');
    await waitFor(() => expect(locationOf(router)).toBe('/settings/admin'));
  });

  it('shows the domain footer with its links, never its markup', async () => {
    installFakeApi({
      'GET domain': () => ({
        status: 200,
        body: {
          ...defaultDomainConfig,
          footerHtml:
            '© 仁和医院 <a href="https://beian.miit.gov.cn/">京ICP备1号</a><img src=x onerror="window.hacked=1"><script>window.hacked=1</script>',
        },
      }),
    });
    renderApp('/login');
    const link = await screen.findByRole('link', { name: '京ICP备1号' });
    expect(link.getAttribute('href')).toBe('https://beian.miit.gov.cn/');
    const footer = link.closest('footer')!;
    expect(footer.textContent).toBe('© 仁和医院 京ICP备1号');
    expect(footer.querySelector('img, script')).toBeNull();
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
  });

  it('signs in with the trimmed username on Enter and returns to the redirect target', async () => {
    const token = tokenFor('doctor');
    const api = server(() => ({ status: 200, body: token }));
    const { router } = renderApp('/login?redirect=%2Fsettings%2Fprofile');
    expect((await screen.findAllByText('Test Hospital')).length).toBeGreaterThan(0);

    await fillAndSubmit('  doctor ', 'Yyp@2026');

    await screen.findByRole('heading', { name: 'Profile' });
    expect(locationOf(router)).toBe('/settings/profile');
    const login = api.requests.find((r) => r.path === 'accounts/login-in');
    expect(login?.body).toEqual({ username: 'doctor', password: 'Yyp@2026' });
    expect(login?.headers.authorization).toBeUndefined();
    expect(JSON.parse(localStorage.getItem(ACCESS_TOKEN_KEY) ?? '{}')).toEqual({ ...token, username: 'doctor' });
    const me = api.requests.find((r) => r.path === 'accounts/me');
    expect(me?.headers.authorization).toBe(`Bearer ${token.accessToken}`);
  });

  it('lands on /studies when there is no redirect', async () => {
    server(() => ({ status: 200, body: tokenFor('doctor') }));
    const { router } = renderApp('/default-login');
    await fillAndSubmit('doctor', 'Yyp@2026');
    await screen.findByText('No exams yet');
    expect(locationOf(router)).toBe('/studies');
  });

  it('says "wrong username or password" and stays', async () => {
    server(() => errorAnswer(401, 'WrongCredentials'));
    const { router } = renderApp('/login');
    await fillAndSubmit('doctor', 'nope');
    expect(await screen.findByText('Wrong username or password.')).toBeTruthy();
    expect(locationOf(router)).toBe('/login');
    expect(sessionStore.getState().session).toBeNull();
  });

  it('reports the lockout with its 30 minutes', async () => {
    server(() => errorAnswer(423, 'LoginLocked', { retryAfterSeconds: 1800 }));
    renderApp('/login');
    await fillAndSubmit('expert', 'nope');
    expect(await screen.findByText('Too many failed logins. Please retry after 30 minutes.')).toBeTruthy();
  });

  it('reports a disabled account', async () => {
    server(() => errorAnswer(403, 'AccountDisabled'));
    renderApp('/login');
    await fillAndSubmit('auditor', 'Yyp@2026');
    expect(await screen.findByText('This account has been disabled. Please contact your administrator.')).toBeTruthy();
  });

  it('sends an expired password to /change-password?username=', async () => {
    server(() => errorAnswer(403, 'PasswordExpired'));
    const { router } = renderApp('/login');
    await fillAndSubmit('senior', 'Yyp@2026');
    await screen.findByRole('heading', { name: 'Set a new password' });
    expect(locationOf(router)).toBe('/change-password?username=senior&redirect=%2Fstudies');
    expect(screen.getByLabelText('Username')).toHaveProperty('value', 'senior');
  });

  it('asks for both fields before calling the server', async () => {
    const api = server(() => ({ status: 200, body: tokenFor('doctor') }));
    renderApp('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'accounts/login-in')).toBe(false);
  });

  it('switches language from the login page', async () => {
    server(() => ({ status: 200, body: tokenFor('doctor') }));
    renderApp('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Language' }));
    await user.click(await screen.findByText('中文'));
    // Ant Design spaces out two-character CJK button labels ("登 录").
    expect(await screen.findByRole('button', { name: /^登\s?录$/ })).toBeTruthy();
    expect(screen.getByText('账号登录')).toBeTruthy();
    expect(localStorage.getItem('yyp.language')).toBe('chs');
    await waitFor(() => expect(document.documentElement.lang).toBe('zh-CN'));
  });
});
