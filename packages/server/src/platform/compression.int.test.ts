import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveSourceMaps, precompressDir } from '../../../web/precompress.js';
import { generateStudy, type GeneratedStudy } from '../dicom/testdata/generate.js';
import { startWithStaff } from '../test/factories-platform.js';
import type { TestApp } from '../test/harness.js';
import { injectStow } from '../test/stow.js';
import { COMPRESS_MIN_BYTES, negotiateEncoding } from './compression.js';
import { CSP_NONCE_PLACEHOLDER } from './page-headers.js';

/**
 * Issue 20 item 15: the web app's files precompressed at build time and sent in the coding the
 * browser accepts; in-memory JSON and the app shell compressed on the fly above 1 KiB; DICOM pixel
 * data never; immutable caching for hashed assets; no source map served.
 */

/** A script of a few KiB, as Vite writes one (assets/[name]-[hash].js). */
const SCRIPT = Array.from({ length: 200 }, (_, i) => `export const value${i} = { id: ${i}, label: "item ${i}" };`).join(
  '\n',
);
/** A shell over the threshold, with the nonce placeholder Vite writes (html.cspNonce). */
const SHELL = `<!doctype html><html><head>
<meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}" />
<script type="module" crossorigin src="/assets/index-Bx1y2z3w.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script>
${Array.from({ length: 30 }, (_, i) => `<link rel="modulepreload" crossorigin href="/assets/chunk${i}-Ab12Cd34.js" nonce="${CSP_NONCE_PLACEHOLDER}">`).join('\n')}
</head><body><div id="root">shell</div></body></html>`;

let dist: string;
let maps: string;
let t: TestApp;
let tech: string;
let study: GeneratedStudy;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-web-compress-'));
  maps = `${dist}-maps`;
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), SHELL);
  fs.writeFileSync(path.join(dist, 'assets', 'index-Bx1y2z3w.js'), SCRIPT);
  fs.writeFileSync(path.join(dist, 'assets', 'index-Bx1y2z3w.js.map'), '{"version":3,"sources":["secret.ts"]}');
  fs.writeFileSync(path.join(dist, 'assets', 'tiny-Qw12Er34.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dist, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(2000)}</svg>`);
  // What the web build does after Vite (packages/web/precompress.ts).
  expect(await moveSourceMaps(dist, maps)).toBe(1);
  await precompressDir(dist);
  // A map left behind in the served folder is still not served.
  fs.writeFileSync(path.join(dist, 'assets', 'stray-Zx98Cv76.js.map'), '{"version":3}');
  const built = await startWithStaff({ webDist: dist }, ['tech']);
  t = built.t;
  tech = built.tech.token;
  study = generateStudy({ modality: 'CT', series: 1, instancesPerSeries: 2, rows: 64, columns: 64 });
  expect(
    (
      await injectStow(
        t,
        tech,
        study.instances.map((i) => i.bytes),
      )
    ).statusCode,
  ).toBe(200);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
  fs.rmSync(maps, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string, token?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: {
      ...(acceptEncoding !== undefined ? { 'accept-encoding': acceptEncoding } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });

function decoded(res: LightMyRequestResponse): Buffer {
  const body = res.rawPayload;
  switch (res.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(body);
    case 'gzip':
      return zlib.gunzipSync(body);
    case undefined:
      return body;
    default:
      throw new Error(`unexpected coding ${String(res.headers['content-encoding'])}`);
  }
}

const varies = (res: LightMyRequestResponse) =>
  String(res.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

describe('the build step (packages/web/precompress.ts)', () => {
  it('writes .br and .gz beside each compressible file over the threshold, and moves source maps out', () => {
    const asset = path.join(dist, 'assets', 'index-Bx1y2z3w.js');
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${asset}.br`)).toString()).toBe(SCRIPT);
    expect(zlib.gunzipSync(fs.readFileSync(`${asset}.gz`)).toString()).toBe(SCRIPT);
    expect(fs.statSync(`${asset}.br`).size).toBeLessThan(SCRIPT.length / 3);
    // Too small to gain anything; the shell is compressed per answer instead.
    expect(fs.existsSync(path.join(dist, 'assets', 'tiny-Qw12Er34.js.br'))).toBe(false);
    expect(fs.existsSync(path.join(dist, 'index.html.br'))).toBe(false);
    expect(fs.existsSync(path.join(dist, 'favicon.svg.br'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'assets', 'index-Bx1y2z3w.js.map'))).toBe(false);
    expect(fs.existsSync(path.join(maps, 'assets', 'index-Bx1y2z3w.js.map'))).toBe(true);
  });
});

describe('static assets', () => {
  const url = '/assets/index-Bx1y2z3w.js';

  it('answers brotli to a browser that accepts it, the precompressed bytes, cached for a year', async () => {
    const res = await get(url, 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.rawPayload.equals(fs.readFileSync(path.join(dist, 'assets', 'index-Bx1y2z3w.js.br')))).toBe(true);
    expect(decoded(res).toString()).toBe(SCRIPT);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(res)).toBe(true);
  });

  it('answers gzip to a client that accepts gzip only', async () => {
    const res = await get(url, 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(decoded(res).toString()).toBe(SCRIPT);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(res)).toBe(true);
  });

  it.each([undefined, '', 'identity', 'br;q=0, gzip;q=0'])(
    'answers the file as it is for Accept-Encoding %j',
    async (accept) => {
      const res = await get(url, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(SCRIPT);
      expect(varies(res)).toBe(true);
    },
  );

  it('answers a file with no compressed copy as it is', async () => {
    const res = await get('/assets/tiny-Qw12Er34.js', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('console.log(1)');
  });

  it('revalidates unhashed files (public/) on each use', async () => {
    const res = await get('/favicon.svg', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    '/assets/index-Bx1y2z3w.js.map',
    '/assets/stray-Zx98Cv76.js.map',
    '/assets/index-Bx1y2z3w.js.br',
    '/assets/index-Bx1y2z3w.js.gz',
    '/assets/missing-Aa11Bb22.js',
  ])('answers 404 for %s (no source map, no copy by name, not the app shell)', async (file) => {
    const res = await get(file, 'br');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().code).toBe('NotFound');
  });
});

describe('the app shell', () => {
  it('is compressed on the fly with its nonce filled in, the one in its CSP, and never cached', async () => {
    const res = await get('/studies', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(varies(res)).toBe(true);
    const html = decoded(res).toString();
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    expect(html).not.toContain(CSP_NONCE_PLACEHOLDER);
    expect(html.split(`nonce="${nonce}"`)).toHaveLength(33);
  });

  it('is sent as it is to a client that accepts no coding', async () => {
    const res = await get('/studies');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toContain('<div id="root">shell</div>');
  });
});

describe('API and DICOMweb answers', () => {
  it('compresses a JSON answer over the threshold, decoding to the same JSON', async () => {
    const plain = await get('/yyp/api/v1/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    for (const coding of ['br', 'gzip'] as const) {
      const res = await get('/yyp/api/v1/openapi.json', coding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(varies(res)).toBe(true);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(JSON.parse(decoded(res).toString())).toEqual(plain.json());
    }
  });

  it('compresses an authenticated PHI answer too, keeping its no-store', async () => {
    const res = await get('/yyp/api/v1/accounts/me', 'gzip', tech);
    const plain = await get('/yyp/api/v1/accounts/me', undefined, tech);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    if (plain.rawPayload.length >= COMPRESS_MIN_BYTES) {
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(decoded(res).toString())).toEqual(plain.json());
    } else {
      expect(res.headers['content-encoding']).toBeUndefined();
    }
  });

  it('leaves a JSON answer under the threshold as it is', async () => {
    const res = await get('/yyp/api/v1/health', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('compresses WADO-RS metadata (DICOM JSON)', async () => {
    const url = `/dicom-web/studies/${study.studyInstanceUid}/metadata`;
    const plain = await get(url, undefined, tech);
    const res = await get(url, 'br', tech);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/dicom\+json/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(res).toString())).toEqual(plain.json());
  });

  it('never compresses WADO-RS frames or instances (pixel data)', async () => {
    const i = study.instances[0]!;
    const base = `/dicom-web/studies/${study.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}`;
    for (const url of [`${base}/frames/1`, base]) {
      const plain = await get(url, undefined, tech);
      const res = await get(url, 'gzip, deflate, br', tech);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^multipart\/related/);
      // 64×64 16-bit pixels: far over the threshold, and very compressible.
      expect(res.rawPayload.length).toBeGreaterThan(64 * 64 * 2);
      expect(res.headers['content-encoding']).toBeUndefined();
      // The same bytes but for the multipart boundary, which is random.
      expect(Math.abs(res.rawPayload.length - plain.rawPayload.length)).toBeLessThan(100);
    }
  });
});

describe('negotiateEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br, gzip;q=0.8', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', null],
    ['deflate', null],
    ['br;q=0', null],
    ['', null],
    [undefined, null],
  ] as const)('%j → %j', (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });
});
