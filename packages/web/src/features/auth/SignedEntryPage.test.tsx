// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { defaultDomainConfig, type EntryToken } from '@yyp/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';

/** /ss-login and /go: a hospital system's signed entry exchanged for a session (GET tokens). */
function server(handlers: Record<string, FakeHandler>) {
  return installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'POST accounts/logout': () => ({ status: 204 }),
    ...handlers,
  });
}
const entryToken = (target = '/studies'): EntryToken => ({ ...tokenFor('doctor', 'sso'), username: 'doctor', target });

afterEach(() => {
  sessionStore.signOut();
});

describe('/go', () => {
  it('signs the previous user out first, then enters as the payload says, without a token and without a password', async () => {
    const previous = tokenFor('senior');
    sessionStore.signIn('senior', previous);
    const api = server({ 'GET tokens': () => ({ status: 200, body: entryToken() }) });
    const { router } = renderApp('/go?data=SIGNED-ENTRY&source=HIS');
    await waitFor(() => expect(locationOf(router)).toBe('/studies'));
    const logout = api.requests.findIndex((r) => r.path === 'accounts/logout');
    const exchange = api.requests.findIndex((r) => r.path === 'tokens');
    expect(logout).toBeGreaterThanOrEqual(0);
    expect(api.requests[logout]!.headers.authorization).toBe(`Bearer ${previous.accessToken}`);
    // Logged out before the exchange, which goes without any token.
    expect(exchange).toBeGreaterThan(logout);
    const call = api.requests[exchange]!;
    expect(call.headers.authorization).toBeUndefined();
    expect(new URLSearchParams(call.search).get('signature')).toBe('SIGNED-ENTRY');
    expect(new URLSearchParams(call.search).get('type')).toBe('go');
    expect(new URLSearchParams(call.search).get('source')).toBe('HIS');
    // One exchange per entry, even though React may run the page's effect twice.
    expect(api.requests.filter((r) => r.path === 'tokens')).toHaveLength(1);
    expect(sessionStore.getState().session).toMatchObject({ username: 'doctor', loginType: 'sso' });
    expect(screen.queryByPlaceholderText('Password')).toBeNull();
  });
});

describe('/ss-login', () => {
  it.each([
    ['used', 'This sign-in link was already used'],
    ['expired', 'This sign-in link has expired'],
    ['invalid', 'This sign-in link is not valid'],
    ['account', 'This account cannot sign in here'],
  ])('says so when the link is %s', async (reason, message) => {
    server({ 'GET tokens': () => errorAnswer(403, 'LinkInvalid', { reason }) });
    renderApp(`/ss-login?t=ENTRY-${reason}`);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(sessionStore.getState().session).toBeNull();
  });

  it('calls nothing for a link without its entry', async () => {
    const api = server({});
    renderApp('/ss-login');
    expect(await screen.findByText('This sign-in link is not valid')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'tokens')).toBe(false);
  });
});
