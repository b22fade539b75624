// @vitest-environment jsdom
import { ACCESS_TOKEN_KEY, REQUEST_TIMEOUT_MS } from '@yyp/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorAnswer, installFakeApi, tokenFor } from '../test/fakeApi';
import { apiRequest, buildUrl } from './client';
import { ApiError } from './errors';
import { bindExpiryEnvironment } from './expiry';
import { sessionStore } from './sessionStore';

function signInAs(username: string, loginType: 'normal' | 'sso' = 'normal') {
  const token = tokenFor(username, loginType);
  sessionStore.signIn(username, token);
  return token;
}

function storedRecord(): Record<string, unknown> | null {
  const raw = localStorage.getItem(ACCESS_TOKEN_KEY);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
}

describe('buildUrl', () => {
  it('prefixes the API base and encodes the query, skipping empty values', () => {
    expect(buildUrl('accounts/me')).toBe('/yyp/api/v1/accounts/me');
    expect(buildUrl('/accounts/suggestions', { q: 'li wei', skip: 0, missing: undefined, none: null })).toBe(
      '/yyp/api/v1/accounts/suggestions?q=li+wei&skip=0',
    );
  });
});

describe('token attachment', () => {
  it('sends the stored token as a bearer header on ordinary calls', async () => {
    const token = signInAs('doctor');
    const api = installFakeApi({ 'GET accounts/me': () => ({ status: 200, body: { id: '1' } }) });
    await apiRequest('accounts/me');
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${token.accessToken}`);
  });

  it('reads the token from local storage at call time', async () => {
    signInAs('doctor');
    const record = storedRecord();
    localStorage.setItem(ACCESS_TOKEN_KEY, JSON.stringify({ ...record, accessToken: 'replaced-token' }));
    const api = installFakeApi({ 'GET accounts/me': () => ({ status: 200, body: {} }) });
    await apiRequest('accounts/me');
    expect(api.requests[0]?.headers.authorization).toBe('Bearer replaced-token');
  });

  it.each(['accounts/login-in', 'accounts', 'share/report', 'auth/token'])(
    'leaves the token off the public path %s',
    async (path) => {
      signInAs('doctor');
      const api = installFakeApi({ [`POST ${path}`]: () => ({ status: 200, body: {} }) });
      await apiRequest(path, { method: 'POST', body: { a: 1 } });
      expect(api.requests[0]?.headers.authorization).toBeUndefined();
    },
  );

  it('leaves the token off a read of the public domain, and sends it with a change of the domain', async () => {
    signInAs('doctor');
    const api = installFakeApi({
      'GET domain': () => ({ status: 200, body: {} }),
      'PUT domain': () => ({ status: 200, body: {} }),
    });
    await apiRequest('domain');
    await apiRequest('domain', { method: 'PUT', body: { a: 1 } });
    expect(api.requests[0]?.headers.authorization).toBeUndefined();
    expect(api.requests[1]?.headers.authorization).toMatch(/^Bearer /);
  });

  it('leaves the token off when the body carries its own token', async () => {
    signInAs('doctor');
    const api = installFakeApi({ 'POST credits/charge': () => ({ status: 200, body: {} }) });
    await apiRequest('credits/charge', { method: 'POST', body: { token: 'own' } });
    expect(api.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('sends no header when nobody is signed in', async () => {
    const api = installFakeApi({ 'GET accounts/me/permissions': () => ({ status: 200, body: [] }) });
    await expect(apiRequest('accounts/me/permissions')).resolves.toEqual([]);
    expect(api.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('answers', () => {
  it('rejects with an ApiError carrying code, status and details', async () => {
    installFakeApi({ 'POST accounts/login-in': () => errorAnswer(423, 'LoginLocked', { retryAfterSeconds: 1700 }) });
    const error = await apiRequest('accounts/login-in', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'LoginLocked', status: 423, details: { retryAfterSeconds: 1700 } });
  });

  it('turns a body that is not an error body into UnknownError with the status', async () => {
    installFakeApi({ 'GET health': () => ({ status: 502, body: 'Bad gateway' }) });
    await expect(apiRequest('health')).rejects.toMatchObject({ code: 'UnknownError', status: 502 });
  });

  it('resolves 204 to undefined', async () => {
    installFakeApi({ 'POST accounts/doctor/password/reset': () => ({ status: 204 }) });
    await expect(
      apiRequest('accounts/doctor/password/reset', { method: 'POST', body: { code: '1', password: 'x' } }),
    ).resolves.toBeUndefined();
  });

  it('reports a network failure as NetworkError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('domain')).rejects.toMatchObject({ code: 'NetworkError', status: 0 });
  });
});

describe('time-out', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  function hangingFetch() {
    return vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
  }

  it('aborts after 15 s with RequestTimeout', async () => {
    const fetchMock = hangingFetch();
    vi.stubGlobal('fetch', fetchMock);
    const pending = apiRequest('domain').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(fetchMock.mock.calls[0]?.[1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'RequestTimeout' });
  });

  it('lets a caller cancel without calling it a time-out', async () => {
    vi.stubGlobal('fetch', hangingFetch());
    const controller = new AbortController();
    const pending = apiRequest('domain', { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    const error = await pending;
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
  });
});

describe('401 with a token error code', () => {
  const navigate = vi.fn<(to: string) => void>();
  let pathname = '/studies';
  let unbind: () => void = () => undefined;

  beforeEach(() => {
    navigate.mockReset();
    pathname = '/studies';
    unbind = bindExpiryEnvironment({ pathname: () => pathname, navigate });
  });

  afterEach(() => {
    unbind();
  });

  function rejectToken(code: 'TokenExpiredError' | 'JsonWebTokenError' = 'TokenExpiredError') {
    installFakeApi({ 'GET accounts/me': () => errorAnswer(401, code) });
    return apiRequest('accounts/me').catch((e: unknown) => e);
  }

  it('password login: clears the token, keeps the username and opens the expiry dialog', async () => {
    signInAs('doctor');
    const error = await rejectToken();
    expect(error).toMatchObject({ code: 'TokenExpiredError', status: 401 });
    expect(storedRecord()).toEqual({ username: 'doctor', loginType: 'normal' });
    expect(sessionStore.getAccessToken()).toBeNull();
    expect(sessionStore.getState().expiryDialogOpen).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('does nothing more while the dialog is already shown', async () => {
    signInAs('doctor');
    await rejectToken();
    expect(sessionStore.getState().expiryDialogOpen).toBe(true);
    await rejectToken('JsonWebTokenError');
    expect(sessionStore.getState().expiryDialogOpen).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('on a public page only clears the token', async () => {
    signInAs('doctor');
    pathname = '/forget-password';
    await rejectToken();
    expect(sessionStore.getAccessToken()).toBeNull();
    expect(sessionStore.getState().expiryDialogOpen).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('with no stored username goes to /login?redirect=/studies', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, JSON.stringify({ accessToken: 'orphan', expires: 9_999_999_999 }));
    sessionStore.reload();
    pathname = '/settings/profile';
    await rejectToken();
    expect(navigate).toHaveBeenCalledWith('/login?redirect=/studies');
    expect(sessionStore.getState().expiryDialogOpen).toBe(false);
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  });

  it('for other login types goes to /login', async () => {
    signInAs('ssouser', 'sso');
    await rejectToken();
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(sessionStore.getState().expiryDialogOpen).toBe(false);
    expect(sessionStore.getState().session).toBeNull();
  });

  it('leaves the session alone on other 401 codes', async () => {
    const token = signInAs('doctor');
    installFakeApi({ 'POST accounts/login-in': () => errorAnswer(401, 'WrongCredentials') });
    await apiRequest('accounts/login-in', { method: 'POST', body: {} }).catch(() => undefined);
    expect(sessionStore.getAccessToken()).toBe(token.accessToken);
    expect(sessionStore.getState().expiryDialogOpen).toBe(false);
  });
});
