import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as tus from 'tus-js-client';
import { expect } from 'vitest';
import type { TestApp } from './harness.js';

/** The tus endpoint's path. */
export const TUS_FILES = '/yyp/api/v1/uploads/files/';

/** An API answer: its status and its JSON body (null when it has none). */
export interface ApiAnswer {
  status: number;
  json: Record<string, unknown>;
}

/**
 * The upload wizard's calls over real HTTP to a test app listening on loopback: the JSON API
 * (opening an upload session, the summary, the finishing call) and the tus protocol, through
 * tus-js-client or one request at a time.
 */
export interface UploadClient {
  /** A call to `/yyp/api/v1/<url>`, with a JSON body when one is given. */
  api(method: string, url: string, token?: string, body?: unknown): Promise<ApiAnswer>;
  /** A POST with a JSON body to `/yyp/api/v1/<url>`. */
  post(url: string, body: unknown, token?: string): Promise<ApiAnswer>;
  /** One file sent whole by tus-js-client in the upload session (no retries). */
  send(sessionToken: string, bytes: Buffer, filename: string, opts?: Partial<tus.UploadOptions>): Promise<tus.Upload>;
  /** One tus request in the upload session; `url` is the endpoint's path or an upload's Location. */
  tus(method: string, url: string, session: string, extra?: Record<string, string>, body?: Buffer): Promise<Response>;
  /** Creates a tus upload of `size` bytes (expects 201) and answers its Location. */
  create(session: string, size: number, filename: string): Promise<string>;
  /** A PATCH of `bytes` at `offset`. */
  patch(url: string, session: string, offset: number, bytes: Buffer): Promise<Response>;
  /** The upload's offset as HEAD answers it. */
  offsetOf(url: string, session: string): Promise<number>;
  /** A tus upload of a file in one PATCH streamed from disk, the client holding none of it (expects 201, 204). */
  sendFile(session: string, file: string, filename: string): Promise<void>;
}

/** Makes the test app listen on a free loopback port and answers its base URL, `http://127.0.0.1:<port>`. */
export async function listenOnLoopback(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/**
 * The upload calls to the app at `baseOf()`, read at each call: a test file makes its client when
 * it loads and sets the base URL once its app listens.
 */
export function uploadClient(baseOf: () => string): UploadClient {
  async function api(method: string, url: string, token?: string, body?: unknown): Promise<ApiAnswer> {
    const res = await fetch(`${baseOf()}/yyp/api/v1/${url}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> };
  }

  function send(
    sessionToken: string,
    bytes: Buffer,
    filename: string,
    opts: Partial<tus.UploadOptions> = {},
  ): Promise<tus.Upload> {
    return new Promise((resolve, reject) => {
      const upload: tus.Upload = new tus.Upload(bytes, {
        endpoint: `${baseOf()}${TUS_FILES}`,
        headers: { 'Upload-Session': sessionToken },
        metadata: { filename },
        retryDelays: [],
        ...opts,
        onSuccess: () => resolve(upload),
        onError: reject,
      });
      upload.start();
    });
  }

  function tusRequest(method: string, url: string, session: string, extra: Record<string, string> = {}, body?: Buffer) {
    return fetch(new URL(url, baseOf()), {
      method,
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Session': session, ...extra },
      ...(body ? { body } : {}),
    });
  }

  async function create(session: string, size: number, filename: string): Promise<string> {
    const res = await tusRequest('POST', TUS_FILES, session, {
      'Upload-Length': String(size),
      'Upload-Metadata': `filename ${Buffer.from(filename).toString('base64')}`,
    });
    expect(res.status).toBe(201);
    return res.headers.get('location')!;
  }

  async function sendFile(session: string, file: string, filename: string): Promise<void> {
    const size = fs.statSync(file).size;
    const url = new URL(await create(session, size, filename), baseOf());
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(url, {
        method: 'PATCH',
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(size),
          'upload-session': session,
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      fs.createReadStream(file).pipe(req);
    });
    expect(status).toBe(204);
  }

  return {
    api,
    post: (url, body, token) => api('POST', url, token, body),
    send,
    tus: tusRequest,
    create,
    patch: (url, session, offset, bytes) =>
      tusRequest(
        'PATCH',
        url,
        session,
        { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
        bytes,
      ),
    offsetOf: async (url, session) => Number((await tusRequest('HEAD', url, session)).headers.get('upload-offset')),
    sendFile,
  };
}
