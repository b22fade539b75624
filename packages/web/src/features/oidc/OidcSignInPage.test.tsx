// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { defaultDomainConfig, type OidcInteraction } from '@yyp/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';

/** /oidc/sign-in: a viewer (OHIF) signs in through yyp's OpenID Connect provider (issue 28 item 11). */
const asked = (remembered = false): OidcInteraction => ({
  clientId: 'ohif',
  clientName: 'OHIF Viewer',
  redirectOrigin: 'https://ohif.example.org',
  remembered,
});
const back = 'https://ohif.example.org/callback?code=C&state=S&iss=x';

function server(handlers: Record<string, FakeHandler>) {
  return installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'doctor' }) }),
    'POST oidc/interaction': () => ({ status: 200, body: { redirectTo: back } }),
    ...handlers,
  });
}

afterEach(() => {
  sessionStore.signOut();
});

describe('/oidc/sign-in', () => {
  it('sends a signed-out visitor to the login page, and back here after it', async () => {
    server({});
    const { router } = renderApp('/oidc/sign-in?interaction=REQ');
    await waitFor(() =>
      expect(locationOf(router)).toBe(`/login?redirect=${encodeURIComponent('/oidc/sign-in?interaction=REQ')}`),
    );
  });

  it('names the viewer and the account, and allows only when the user says so', async () => {
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const api = server({ 'GET oidc/interaction': () => ({ status: 200, body: asked() }) });
    renderApp('/oidc/sign-in?interaction=REQ');
    expect(
      await screen.findByText(
        'OHIF Viewer (https://ohif.example.org) asks to open images with your yyp account doctor.',
      ),
    ).toBeTruthy();
    expect(
      new URLSearchParams(api.requests.find((r) => r.method === 'GET' && r.path === 'oidc/interaction')!.search).get(
        'interaction',
      ),
    ).toBe('REQ');
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() =>
      expect(api.requests.some((r) => r.method === 'POST' && r.path === 'oidc/interaction')).toBe(true),
    );
    const post = api.requests.find((r) => r.method === 'POST' && r.path === 'oidc/interaction')!;
    expect(post.body).toEqual({ interaction: 'REQ', decision: 'allow' });
    expect(post.headers.authorization).toMatch(/^Bearer /);
  });

  it('cancels with deny', async () => {
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const api = server({ 'GET oidc/interaction': () => ({ status: 200, body: asked() }) });
    renderApp('/oidc/sign-in?interaction=REQ');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({ interaction: 'REQ', decision: 'deny' }),
    );
  });

  it('goes on by itself when this session allowed the viewer before', async () => {
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const api = server({ 'GET oidc/interaction': () => ({ status: 200, body: asked(true) }) });
    renderApp('/oidc/sign-in?interaction=REQ');
    await waitFor(() =>
      expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
        { interaction: 'REQ', decision: 'allow' },
      ]),
    );
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
  });

  it('says so when the request has expired', async () => {
    sessionStore.signIn('doctor', tokenFor('doctor'));
    server({ 'GET oidc/interaction': () => errorAnswer(400, 'ValidationError') });
    renderApp('/oidc/sign-in?interaction=OLD');
    expect(
      await screen.findByText('This sign-in request has expired or is not valid. Start again from the viewer.'),
    ).toBeTruthy();
  });
});
