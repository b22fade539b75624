import * as oidc from 'openid-client';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { E2E_VIEWER_CLIENT, E2E_VIEWER_REDIRECT } from './globalSetup.js';
import { baseUrl, browserPerFile, screenshot, signIn } from './support.js';

/**
 * Issue 28 item 11: a viewer on another origin (OHIF in bench/ohif-oidc) signs its user in through
 * yyp as its OpenID Connect provider. Here the viewer is openid-client (authorization code + PKCE)
 * and the user a doctor signed in to yyp in Chromium: the authorization request opens yyp's page
 * /oidc/sign-in, which names the viewer; 允许 sends the browser back to the viewer with a code
 * (taken in the browser: nothing listens there), which the viewer exchanges for a token that reads
 * yyp's DICOMweb, and only that.
 */

let page: Page;
browserPerFile((c) => ({ page } = c));

describe('a viewer signs in through yyp', () => {
  it('asks the signed-in doctor, gives the viewer a code, and its token reads DICOMweb only', async () => {
    const config = await oidc.discovery(new URL(`${baseUrl()}/yyp/oidc`), E2E_VIEWER_CLIENT, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: E2E_VIEWER_REDIRECT,
      scope: 'openid profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    let callback = '';
    await page.route(`${E2E_VIEWER_REDIRECT}**`, async (route) => {
      callback = route.request().url();
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'viewer' });
    });

    await signIn(page, 'doctor');
    await page.goto(url.href);
    await page.waitForURL(/\/oidc\/sign-in\?/);
    await page.getByText('PACS 工作站').waitFor();
    await page.getByText('http://127.0.0.1:9').waitFor();
    await screenshot(page, 'oidc-viewer-consent');
    await page.getByRole('button', { name: /允\s?许/ }).click();
    await expect.poll(() => callback, { timeout: 15_000 }).not.toBe('');
    // No token in any URL: the browser brought back a code and the state only.
    const back = new URL(callback);
    expect([...back.searchParams.keys()].filter((k) => !['code', 'state', 'iss'].includes(k))).toEqual([]);
    expect(back.searchParams.get('code')).toBeTruthy();
    expect(back.searchParams.get('state')).toBe(state);

    const tokens = await oidc.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      idTokenExpected: true,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const studies = await fetch(`${baseUrl()}/dicom-web/studies?limit=5`, {
      headers: { ...bearer, accept: 'application/dicom+json' },
    });
    expect(studies.status).toBe(200);
    expect(((await studies.json()) as unknown[]).length).toBeGreaterThan(0);
    // The API does not take it.
    const api = await fetch(`${baseUrl()}/yyp/api/v1/accounts/me`, { headers: bearer });
    expect(api.status).toBe(401);
  });
});
