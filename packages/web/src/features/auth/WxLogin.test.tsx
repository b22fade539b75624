// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig } from '@yyp/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';

// Issue 27 / spec 001 "Sign in ... by WeChat": the login page's WeChat button, and /loginCallback?source=wx,
// which signs a linked WeChat in at once or shows the card that links it to an account.

const domain = () => ({ status: 200, body: { ...defaultDomainConfig, displayName: 'Test Hospital' } });
const QR = 'https://open.weixin.qq.com/connect/qrconnect?appid=wx1&state=s#wechat_redirect';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('WeChat on the login page', () => {
  it('offers WeChat when the site has it and leaves for the QR-code page with one click', async () => {
    const api = installFakeApi({
      'GET domain': domain,
      'GET accounts/auth': (request) =>
        new URLSearchParams(request.search).get('type') === 'wx'
          ? { status: 200, body: { providers: [], url: QR, wx: true } }
          : { status: 200, body: { providers: [], url: null, wx: true } },
    });
    renderApp('/login?redirect=%2Fregistry');
    const button = await screen.findByText('WeChat');
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as Location);
    await userEvent.setup().click(button);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(QR));
    const start = api.requests.find((r) => r.path === 'accounts/auth' && r.search.includes('type=wx'))!;
    expect(new URLSearchParams(start.search).get('redirect')).toBe('/registry');
    expect(start.headers.authorization).toBeUndefined();
  });

  it('shows no WeChat button when the site does not offer it', async () => {
    installFakeApi({
      'GET domain': domain,
      'GET accounts/auth': () => ({ status: 200, body: { providers: [], url: null, wx: false } }),
    });
    renderApp('/login');
    await screen.findByLabelText('Username');
    expect(screen.queryByText('WeChat')).toBeNull();
  });
});

describe('/loginCallback?source=wx', () => {
  it('signs a linked WeChat in at once and opens the page it was started from', async () => {
    const api = installFakeApi({
      'GET domain': domain,
      'GET auth/wx/callback': () => ({
        status: 200,
        body: { status: 'signedIn', token: tokenFor('doctor'), username: 'doctor', redirect: '/settings/profile' },
      }),
      'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    });
    const { router } = renderApp('/loginCallback?source=wx&code=c-1&state=s-1');
    await waitFor(() => expect(locationOf(router)).toBe('/settings/profile'));
    expect(sessionStore.getState().session).toMatchObject({ username: 'doctor', loginType: 'normal' });
    const calls = api.requests.filter((r) => r.path === 'auth/wx/callback');
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(calls[0]!.search))).toEqual({
      code: 'c-1',
      state: 's-1',
      source: 'wx',
    });
    expect(api.requests.some((r) => r.path === 'auth/token')).toBe(false);
  });

  it('links an unlinked WeChat to an account by its password, then signs in', async () => {
    const api = installFakeApi({
      'GET domain': domain,
      'GET auth/wx/callback': () => ({
        status: 200,
        body: { status: 'bind', ticket: 't-1', nickname: '张医生', headimgurl: '', canRegister: false },
      }),
      'POST auth/wx/bind': (request) =>
        (request.body as { password: string }).password === 'right'
          ? { status: 200, body: { token: tokenFor('doctor'), username: 'doctor', redirect: '/registry' } }
          : errorAnswer(401, 'WrongCredentials'),
      'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    });
    const { router } = renderApp('/loginCallback?source=wx&code=c-2&state=s-2');
    expect(await screen.findByText('Link your WeChat to an account')).toBeTruthy();
    expect(screen.getByText(/WeChat “张医生” is not linked/)).toBeTruthy();
    expect(screen.queryByText('Create a new account instead')).toBeNull();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'doctor');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByText('Link and sign in'));
    await waitFor(() => expect(api.requests.filter((r) => r.path === 'auth/wx/bind')).toHaveLength(1));
    expect(locationOf(router)).toMatch(/^\/loginCallback\?source=wx/);
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'right');
    await user.click(screen.getByText('Link and sign in'));
    await waitFor(() => expect(locationOf(router)).toBe('/registry'));
    expect(api.requests.filter((r) => r.path === 'auth/wx/bind').at(-1)!.body).toEqual({
      ticket: 't-1',
      username: 'doctor',
      password: 'right',
    });
    expect(sessionStore.getState().session).toMatchObject({ username: 'doctor' });
  });

  it('creates an account for the WeChat where registration is open', async () => {
    const api = installFakeApi({
      'GET domain': domain,
      'GET auth/wx/callback': () => ({
        status: 200,
        body: { status: 'bind', ticket: 't-3', nickname: 'Wang', headimgurl: '', canRegister: true },
      }),
      'POST auth/wx/register': () => ({
        status: 200,
        body: { token: tokenFor('wang'), username: 'wang', redirect: null },
      }),
      'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'wang', hasPassword: false }) }),
      'GET accounts/me/organizations': () => ({ status: 200, body: [] }),
    });
    renderApp('/loginCallback?source=wx&code=c-3&state=s-3');
    const user = userEvent.setup();
    await user.click(await screen.findByText('Create a new account instead'));
    await user.type(screen.getByLabelText('Username'), 'wang');
    await user.type(screen.getByLabelText('Name'), '王伟');
    await user.click(screen.getByText('Create account and sign in'));
    await waitFor(() => expect(sessionStore.getState().session).toMatchObject({ username: 'wang' }));
    expect(api.requests.find((r) => r.path === 'auth/wx/register')!.body).toEqual({
      ticket: 't-3',
      username: 'wang',
      name: '王伟',
    });
  });

  it('says why a refused WeChat login failed', async () => {
    installFakeApi({
      'GET domain': domain,
      'GET auth/wx/callback': () => errorAnswer(400, 'WxStateInvalid'),
    });
    renderApp('/loginCallback?source=wx&code=c-4&state=s-4');
    expect(await screen.findByText(/This WeChat login is unknown/)).toBeTruthy();
    expect(screen.getByText('Back to the login page')).toBeTruthy();
  });
});
