import { API_BASE, matchCallPath, type ErrorBody, type TokenInfo, type User } from '@yyp/contracts';
import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  /** Path relative to the API base, without the query. */
  path: string;
  search: string;
  headers: Record<string, string>;
  body: unknown;
  /** the path parameters, when the handler's key is a call's path pattern (contracts callKey) */
  params: Record<string, string>;
}

export interface FakeResponse {
  status: number;
  body?: unknown;
}

export type FakeHandler = (request: RecordedRequest) => FakeResponse | Promise<FakeResponse>;

/** The handler of a request: its exact "METHOD path" key first, else a call's pattern (`callKey`). */
function findHandler(handlers: Record<string, FakeHandler>, method: string, path: string) {
  const exact = handlers[`${method} ${path}`];
  if (exact) return { handler: exact, params: {} };
  for (const [key, handler] of Object.entries(handlers)) {
    const [m, pattern] = key.split(' ', 2);
    if (m !== method || !pattern?.includes(':')) continue;
    const params = matchCallPath(pattern, path);
    if (params) return { handler, params };
  }
  return null;
}

/**
 * A stand-in for the server behind fetch: handlers keyed by "METHOD path" (path relative to the API
 * base), or by a call's key with its parameters (`callKey(reportCalls.approve)`, "POST
 * reports/:reportId/approve"; the handler reads them in `request.params`). Unknown calls answer 404
 * NotFound like the real server. Every request is recorded.
 */
export function installFakeApi(handlers: Record<string, FakeHandler>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost');
    if (!url.pathname.startsWith(API_BASE)) {
      throw new TypeError(`unexpected fetch of ${url.pathname}`);
    }
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const method = init?.method ?? 'GET';
    const path = url.pathname.slice(API_BASE.length);
    const found = findHandler(handlers, method, path);
    const request: RecordedRequest = {
      method,
      path,
      search: url.search,
      headers,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      params: found?.params ?? {},
    };
    requests.push(request);
    const answer = found
      ? await found.handler(request)
      : { status: 404, body: { code: 'NotFound', message: 'Not found' } satisfies ErrorBody };
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return new Response(answer.status === 204 ? null : text, {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}

export function errorAnswer(status: number, code: ErrorBody['code'], details?: unknown): FakeResponse {
  return { status, body: { code, message: code, ...(details === undefined ? {} : { details }) } };
}

export function tokenFor(username: string, loginType: TokenInfo['loginType'] = 'normal', ttlSeconds = 3600): TokenInfo {
  return {
    accessToken: `token-of-${username}-${Math.random().toString(36).slice(2)}`,
    expires: Math.floor(Date.now() / 1000) + ttlSeconds,
    loginType,
  };
}

export function demoUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u-doctor',
    username: 'doctor',
    name: 'Dr. Li',
    avatar: null,
    signature: null,
    canCreateGroup: false,
    registry: false,
    domainName: {},
    mobile: null,
    licenseIssuer: null,
    professionalTitle: null,
    loginType: 'normal',
    isPlatformAdmin: false,
    preferences: {},
    ...overrides,
  };
}
