// The e2e project compiles this file without the server's src folder: its module declaration comes along.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider-module.d.ts" />
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/**
 * A real OpenID Provider for tests (npm oidc-provider, a certified implementation) on 127.0.0.1, with
 * its development login and consent screens (any login and password sign in; the login is the
 * subject). The sso int tests drive those screens with plain HTTP (`signIn`); the e2e starts it from
 * its global setup and a browser fills the login form.
 */
export interface OidcTestClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface OidcTestProvider {
  /** the issuer identifier, http://127.0.0.1:<port> */
  issuer: string;
  /** claims a login answers beyond the defaults (preferred_username = login, name = "User <login>") */
  users: Map<string, Record<string, unknown>>;
  /**
   * Follows an authorization request through the provider's login and consent screens as `login`
   * and answers the redirect back to the client (its code, state and iss), without following it.
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startOidcProvider(options: {
  clients: OidcTestClient[];
  /** the id token's lifetime (default 3600 s) */
  idTokenTtlSeconds?: number;
  port?: number;
}): Promise<OidcTestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const users = new Map<string, Record<string, unknown>>();
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' };
  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: ['oidc-test-provider-cookie-key-0123456789'] },
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username'],
      phone: ['phone_number'],
      email: ['email'],
    },
    ttl: { IdToken: options.idTokenTtlSeconds ?? 3600 },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, preferred_username: sub, name: `User ${sub}`, ...users.get(sub) }),
    }),
  });
  const callback = provider.callback();
  server.on('request', (req, res) => void callback(req, res));
  return {
    issuer,
    users,
    signIn: (authorizationUrl, login) => walk(authorizationUrl, login),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A tiny cookie jar and redirect walker for the provider's interaction screens. */
async function walk(start: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const origin = new URL(start).origin;
  const send = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  };
  let url = start;
  let form: Record<string, string> | undefined;
  for (let step = 0; step < 12; step++) {
    const res = await send(url, form);
    form = undefined;
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`oidc provider answered ${res.status}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no interaction form in: ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    form = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
  }
  throw new Error('the provider did not redirect back');
}
