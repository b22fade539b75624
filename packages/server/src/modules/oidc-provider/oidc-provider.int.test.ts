import crypto from 'node:crypto';
import { SignJWT, importJWK, type JWK } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDisabled } from '../accounts/index.js';
import { freePort } from '../../dicom/testdata/qrscu.js';
import { makeStaffed } from '../../test/factories-archive.js';
import { makeExam, type BuiltAccount } from '../../test/factories.js';
import { lastAudit } from '../../test/factories-platform.js';
import { startTestApp, TestClock, type TestApp } from '../../test/harness.js';
import { makeOidcSigningKey } from './oidc-provider.keys.js';

// Issue 28 item 11: yyp as the OpenID Connect provider of a viewer (OHIF) on another origin. A real
// client library (openid-client) runs the authorization code flow with PKCE against the server on
// a loopback port; the signed-in user answers on yyp's sign-in page (its two API calls here).

// A free port, taken before the app starts (its issuer names it): the PGlite and PostgreSQL tiers
// run this file at the same time.
let PORT = 0;
let BASE = '';
let ISSUER = '';
const VIEWER = 'http://127.0.0.1:21211';
const REDIRECT = `${VIEWER}/callback`;
const AFTER_LOGOUT = `${VIEWER}/logout-redirect.html`;
const key = makeOidcSigningKey();

let t: TestApp;
let doctor: BuiltAccount;
let studyUid: string;
let config: oidc.Configuration;
const clock = new TestClock(Date.now());
const syncClock = () => clock.advance(Date.now() - clock.now().getTime());

beforeAll(async () => {
  PORT = await freePort();
  BASE = `http://127.0.0.1:${PORT}`;
  ISSUER = `${BASE}/yyp/oidc`;
  t = await startTestApp({
    seed: false,
    clock,
    publicBaseUrl: BASE,
    app: {
      oidcProvider: {
        clients: [
          {
            clientId: 'ohif',
            clientName: 'OHIF Viewer',
            redirectUris: [REDIRECT],
            postLogoutRedirectUris: [AFTER_LOGOUT],
          },
        ],
        key,
      },
    },
  });
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
  const { org, doctor: d } = await makeStaffed(t, ['doctor']);
  doctor = d;
  studyUid = (await makeExam(t, org.bucketId)).study.studyInstanceUid;
  config = await oidc.discovery(new URL(ISSUER), 'ohif', undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
});
afterAll(async () => {
  await t?.close();
});

/** The viewer starts a sign-in; yyp's page (as `token`'s holder) allows it; the viewer exchanges the code. */
async function signIn(token: string) {
  syncClock();
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const started = await fetch(url, { redirect: 'manual' });
  expect(started.status).toBe(302);
  const page = new URL(started.headers.get('location')!);
  expect(`${page.origin}${page.pathname}`).toBe(`${BASE}/oidc/sign-in`);
  const interaction = page.searchParams.get('interaction')!;
  const asked = await t.as(token).get(`oidc/interaction?interaction=${encodeURIComponent(interaction)}`);
  expect(asked.json()).toMatchObject({ clientId: 'ohif', clientName: 'OHIF Viewer', redirectOrigin: VIEWER });
  const decided = await t.as(token).post('oidc/interaction', { interaction, decision: 'allow' });
  expect(decided.statusCode, decided.body).toBe(200);
  const callback = new URL((decided.json() as { redirectTo: string }).redirectTo);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
  return { tokens, callback, verifier, remembered: (asked.json() as { remembered: boolean }).remembered };
}

const studies = (token: string) =>
  fetch(`${BASE}/dicom-web/studies`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/dicom+json' },
  });

const form = (body: Record<string, string>) =>
  fetch(`${ISSUER}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  });

/** An access token signed with `signKey`, claims as the provider's unless overridden. */
async function craft(signKey: JWK, kid: string, claims: Record<string, unknown>, aud: string, expSeconds = 300) {
  const iat = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(aud)
    .setSubject(doctor.accountId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + expSeconds)
    .sign(await importJWK({ ...signKey, alg: 'RS256' }, 'RS256'));
}

describe('yyp as an OpenID Connect provider for viewers', () => {
  it('publishes its discovery document and keys', async () => {
    const res = await fetch(`${ISSUER}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/auth`,
      token_endpoint: `${ISSUER}/token`,
      jwks_uri: `${ISSUER}/jwks`,
      end_session_endpoint: `${ISSUER}/session/end`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
    const jwks = (await (await fetch(`${ISSUER}/jwks`)).json()) as { keys: JWK[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', kid: key.kid, alg: 'RS256' });
    expect(jwks.keys[0]!.d).toBeUndefined();
    // The viewer's origin may read the answers (CORS), another may not.
    const cors = await fetch(`${ISSUER}/.well-known/openid-configuration`, { headers: { origin: VIEWER } });
    expect(cors.headers.get('access-control-allow-origin')).toBe(VIEWER);
    const other = await fetch(`${ISSUER}/jwks`, { headers: { origin: 'http://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('signs a viewer in with code + PKCE; its access token reads /dicom-web and nothing else; audited', async () => {
    const { tokens } = await signIn(doctor.token);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBeLessThanOrEqual(600);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.claims()).toMatchObject({ iss: ISSUER, aud: 'ohif', sub: doctor.accountId });
    const res = await studies(tokens.access_token);
    expect(res.status).toBe(200);
    const found = (await res.json()) as Record<string, { Value?: string[] }>[];
    expect(found.map((s) => s['0020000D']?.Value?.[0])).toContain(studyUid);
    // Only /dicom-web takes it: the API refuses it, and the id token is no access token.
    const api = await t.as(tokens.access_token).get('accounts/me');
    expect(api.statusCode).toBe(401);
    expect((await studies(tokens.id_token!)).status).toBe(401);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, doctor.accountId);
    expect(info.preferred_username).toBe(doctor.username);
    const row = await lastAudit(t, 'oidc.token');
    expect(row).toMatchObject({ outcome: 'success', actorId: doctor.accountId });
    expect(row?.details).toMatchObject({ clientId: 'ohif', grantType: 'authorization_code' });
  });

  it('renews with the refresh token once; a replaced one used again ends the grant', async () => {
    const { tokens } = await signIn(doctor.token);
    const renewed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await studies(renewed.access_token)).status).toBe(200);
    expect((await lastAudit(t, 'oidc.token'))?.details).toMatchObject({ grantType: 'refresh_token' });
    const again = await form({ grant_type: 'refresh_token', client_id: 'ohif', refresh_token: tokens.refresh_token! });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    // The replaced token used again was copied: the grant ends, the new refresh token too.
    const reuse = await lastAudit(t, 'oidc.token');
    expect(reuse).toMatchObject({ outcome: 'failure', actorId: doctor.accountId });
    expect(reuse?.details).toMatchObject({ reason: 'refresh_reused' });
    const renewedAgain = await form({
      grant_type: 'refresh_token',
      client_id: 'ohif',
      refresh_token: renewed.refresh_token!,
    });
    expect(await renewedAgain.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an expired, forged or other-audience access token', async () => {
    const { tokens } = await signIn(doctor.token);
    const { kty, n, e, d, p, q, dp, dq, qi } = key.privateJwk;
    const own = { kty, n, e, d, p, q, dp, dq, qi } as JWK;
    const session = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as {
      tv: number;
      sid: string;
    };
    const claims = { tv: session.tv, sid: session.sid, client_id: 'ohif' };
    // The same claims signed by the provider's own key pass: the refusals below are for the reason named.
    expect((await studies(await craft(own, key.kid, claims, `${BASE}/dicom-web`))).status).toBe(200);
    const forger = makeOidcSigningKey();
    expect((await studies(await craft(forger.privateJwk as JWK, key.kid, claims, `${BASE}/dicom-web`))).status).toBe(
      401,
    );
    expect((await studies(await craft(own, key.kid, claims, 'https://other.example/api'))).status).toBe(401);
    clock.advance(301_000);
    const expired = await studies(tokens.access_token);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { code: string }).code).toBe('TokenExpiredError');
  });

  it('ends with the yyp session: logout or a disabled account stops its tokens and its refresh', async () => {
    const { accountId, username, password } = doctor;
    const fresh = await t.login(username, password);
    const { tokens } = await signIn(fresh);
    expect((await studies(tokens.access_token)).status).toBe(200);
    expect((await t.as(fresh).post('accounts/logout')).statusCode).toBeLessThan(300);
    expect((await studies(tokens.access_token)).status).toBe(401);
    const refused = await form({
      grant_type: 'refresh_token',
      client_id: 'ohif',
      refresh_token: tokens.refresh_token!,
    });
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });

    const other = await t.login(username, password);
    const second = await signIn(other);
    await setDisabled(t.db.database.db, accountId, 1, clock.now());
    try {
      expect((await studies(second.tokens.access_token)).status).toBe(401);
    } finally {
      await setDisabled(t.db.database.db, accountId, 0, clock.now());
    }
    // Disabling moved the token version: the yyp token of before works no more either.
    doctor = { ...doctor, token: await t.login(username, password) };
  });

  it('refuses an unregistered client or redirect URI without redirecting, and requires PKCE', async () => {
    syncClock();
    const challenge = await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier());
    const auth = (q: Record<string, string>) =>
      fetch(`${ISSUER}/auth?${new URLSearchParams(q)}`, { redirect: 'manual' });
    const good = {
      client_id: 'ohif',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 's1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const unknown = await auth({ ...good, client_id: 'stranger' });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_client' });
    const elsewhere = await auth({ ...good, redirect_uri: 'http://evil.example/callback' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get('location')).toBeNull();
    for (const missing of [{ code_challenge: '' }, { code_challenge_method: 'plain' }]) {
      const res = await auth({ ...good, ...missing });
      expect(res.status).toBe(302);
      const back = new URL(res.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('state')).toBe('s1');
    }
    // A code without its verifier, or with another one, is refused; it is single use.
    const { callback, verifier } = await codeOnly(doctor.token);
    const code = callback.searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', client_id: 'ohif', code, redirect_uri: REDIRECT };
    expect(await (await form(base)).json()).toMatchObject({ error: 'invalid_request' });
    const wrong = await form({ ...base, code_verifier: oidc.randomPKCECodeVerifier() });
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
    // The wrong verifier ended the grant: the right one comes too late.
    expect(await (await form({ ...base, code_verifier: verifier })).json()).toMatchObject({ error: 'invalid_grant' });
    const stranger = await form({ ...base, client_id: 'stranger', code_verifier: verifier });
    expect(stranger.status).toBe(401);
  });

  it('signs the viewer out: its refresh token stops, and it goes back to a registered page only', async () => {
    const { tokens } = await signIn(doctor.token);
    const out = await fetch(
      `${ISSUER}/session/end?${new URLSearchParams({
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: AFTER_LOGOUT,
        state: 'bye',
      })}`,
      { redirect: 'manual' },
    );
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe(`${AFTER_LOGOUT}?state=bye`);
    const refused = await form({
      grant_type: 'refresh_token',
      client_id: 'ohif',
      refresh_token: tokens.refresh_token!,
    });
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });
    const elsewhere = await fetch(
      `${ISSUER}/session/end?${new URLSearchParams({ client_id: 'ohif', post_logout_redirect_uri: 'http://evil.example/' })}`,
      { redirect: 'manual' },
    );
    expect(elsewhere.status).toBe(200);
  });

  it("remembers the user's consent for the session while the viewer's grant lives", async () => {
    const session = await t.login(doctor.username, doctor.password);
    const first = await signIn(session);
    expect(first.remembered).toBe(false);
    const again = await signIn(session);
    expect(again.remembered).toBe(true);
    // Another session of the same account is asked anew.
    expect((await signIn(await t.login(doctor.username, doctor.password))).remembered).toBe(false);
    for (const grant of [first, again]) {
      await fetch(`${ISSUER}/session/end?${new URLSearchParams({ id_token_hint: grant.tokens.id_token! })}`);
    }
    expect((await signIn(session)).remembered).toBe(false);
  });

  it('refuses a sign-in page request it did not sign', async () => {
    const forged = Buffer.from(JSON.stringify({ r: { clientId: 'ohif' }, p: 'oidc-interaction', x: 9e9 })).toString(
      'base64url',
    );
    const res = await t.as(doctor.token).post('oidc/interaction', {
      interaction: `${forged}.${crypto.randomBytes(32).toString('base64url')}`,
      decision: 'allow',
    });
    expect(res.statusCode).toBe(400);
  });
});

/** The flow up to the viewer's callback (the code not yet exchanged). */
async function codeOnly(token: string) {
  syncClock();
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: 's2',
  });
  const started = await fetch(url, { redirect: 'manual' });
  const interaction = new URL(started.headers.get('location')!).searchParams.get('interaction')!;
  const decided = await t.as(token).post('oidc/interaction', { interaction, decision: 'allow' });
  return { callback: new URL((decided.json() as { redirectTo: string }).redirectTo), verifier };
}
