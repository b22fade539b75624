import { API_BASE, REQUEST_TIMEOUT_MS, isErrorBody, shouldAttachToken, tokenErrorCodes } from '@yyp/contracts';
import { ApiError } from './errors';
import { handleTokenRejected } from './expiry';
import { sessionStore } from './sessionStore';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: HttpMethod;
  body?: unknown;
  /** a list repeats its key (bucketIds=a&bucketIds=b) */
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  /** Defaults to the 15 s of spec 001 §7; report views pass REPORT_VIEW_TIMEOUT_MS. */
  timeoutMs?: number;
  /** A caller's own cancellation (React Query passes one); rejects with the AbortError. */
  signal?: AbortSignal;
  /** Never send the stored token: calls made for a visitor of a public page (an upload link). */
  anonymous?: boolean;
  /** 'blob' answers a successful body as a Blob (binary answers such as exports); errors stay JSON. */
  as?: 'json' | 'blob';
  /** Extra headers (the viewer's signed openpath travels in one). */
  headers?: Record<string, string>;
}

export function buildUrl(path: string, query?: Record<string, QueryValue | readonly QueryValue[]>): string {
  const url = API_BASE + path.replace(/^\/+/, '');
  if (!query) {
    return url;
  }
  const params = new URLSearchParams();
  for (const [key, values] of Object.entries(query)) {
    for (const value of Array.isArray(values) ? values : [values]) {
      if (value !== undefined && value !== null) {
        params.append(key, String(value));
      }
    }
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toApiError(status: number, body: unknown): ApiError {
  if (isErrorBody(body)) {
    return new ApiError(body.code, status, body.message, body.details);
  }
  return new ApiError('UnknownError', status, `HTTP ${status}`);
}

/**
 * The one way the web app talks to the API. It implements the session rules of spec 001 §8:
 * bearer token from local storage unless the path or body says otherwise, a 15 s time-out, and the
 * token-rejected reaction on 401 TokenExpiredError/JsonWebTokenError. Failures reject with ApiError.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const {
    method = 'GET',
    body,
    query,
    timeoutMs = REQUEST_TIMEOUT_MS,
    signal,
    anonymous = false,
    as = 'json',
  } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  // A Blob body (an image) is sent as it is, with its own type; anything else as JSON.
  const binary = body instanceof Blob;
  if (body !== undefined) {
    headers['Content-Type'] = binary ? body.type || 'application/octet-stream' : 'application/json';
  }
  if (!anonymous && shouldAttachToken(path, body, method)) {
    const token = sessionStore.getAccessToken();
    if (token) {
      headers.Authorization = `Bearer ${token}`;
    }
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = (): void => controller.abort();
  if (signal?.aborted) {
    controller.abort();
  }
  signal?.addEventListener('abort', forwardAbort);

  let response: Response;
  let text = '';
  let blob: Blob | undefined;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : binary ? body : JSON.stringify(body),
      signal: controller.signal,
    });
    if (as === 'blob' && response.ok) {
      blob = await response.blob();
    } else {
      text = await response.text();
    }
  } catch (error) {
    if (timedOut) {
      throw new ApiError('RequestTimeout', 0, `No answer within ${timeoutMs} ms`);
    }
    if (signal?.aborted) {
      throw error;
    }
    throw new ApiError('NetworkError', 0, error instanceof Error ? error.message : 'Network error');
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }

  if (!response.ok) {
    const error = toApiError(response.status, parseJson(text));
    // Anonymous calls (an upload link, a shared viewer) carry no session to end.
    if (
      !anonymous &&
      response.status === 401 &&
      tokenErrorCodes.includes(error.code as (typeof tokenErrorCodes)[number])
    ) {
      handleTokenRejected();
    }
    throw error;
  }
  if (blob) {
    return blob as T;
  }
  if (response.status === 204 || text.length === 0) {
    return undefined as T;
  }
  const data = parseJson(text);
  if (data === undefined) {
    throw new ApiError('UnknownError', response.status, 'Answer is not JSON');
  }
  return data as T;
}
