import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.js';

// OIDC_PROVIDER_CLIENTS (issue 28 item 11): the viewers that may sign in through yyp.
const base = { PUBLIC_BASE_URL: 'https://pacs.example.org' };
const client = {
  client_id: 'ohif',
  redirect_uris: ['https://ohif.example.org/callback'],
  post_logout_redirect_uris: ['https://ohif.example.org/'],
};
const load = (clients: unknown, env: Record<string, string> = base) =>
  loadConfig({ ...env, OIDC_PROVIDER_CLIENTS: typeof clients === 'string' ? clients : JSON.stringify(clients) });

describe('OIDC_PROVIDER_CLIENTS', () => {
  it('is off unless set, and reads public clients', () => {
    expect(loadConfig({}).oidcProviderClients).toEqual([]);
    expect(
      load([client, { client_id: 'weasis', client_name: 'Weasis', redirect_uris: ['http://127.0.0.1:8500/cb'] }])
        .oidcProviderClients,
    ).toEqual([
      {
        clientId: 'ohif',
        clientName: 'ohif',
        redirectUris: ['https://ohif.example.org/callback'],
        postLogoutRedirectUris: ['https://ohif.example.org/'],
      },
      {
        clientId: 'weasis',
        clientName: 'Weasis',
        redirectUris: ['http://127.0.0.1:8500/cb'],
        postLogoutRedirectUris: [],
      },
    ]);
  });

  it.each([
    ['not JSON', '{client_id', /JSON array/],
    ['an object', client, /JSON array/],
    ['an empty list', [], /JSON array/],
    ['a bad client id', [{ ...client, client_id: 'o h i f' }], /client_id/],
    ['a client twice', [client, client], /listed twice/],
    ['no redirect URI', [{ ...client, redirect_uris: [] }], /redirect_uris/],
    ['a relative redirect URI', [{ ...client, redirect_uris: ['/callback'] }], /redirect_uris/],
    ['a redirect URI with a fragment', [{ ...client, redirect_uris: ['https://ohif.example.org/cb#x'] }], /fragment/],
    ['a javascript: URI', [{ ...client, redirect_uris: ['javascript:alert(1)'] }], /http\(s\)/],
    ['a bad logout URI', [{ ...client, post_logout_redirect_uris: ['ftp://x/'] }], /post_logout_redirect_uris/],
  ])('stops the server on %s', (_what, value, message) => {
    expect(() => load(value)).toThrow(message);
  });

  it('needs PUBLIC_BASE_URL, which names the issuer', () => {
    expect(() => load([client], {})).toThrow(/PUBLIC_BASE_URL/);
  });
});
