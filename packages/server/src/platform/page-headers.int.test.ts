import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import {
  createTestDatabase,
  startTestApp,
  TestClock,
  TEST_SECRET,
  type TestApp,
  type TestDatabase,
} from '../test/harness.js';
import { S3BlobStore } from './blobs-s3.js';
import { blobOriginsOf, CSP_NONCE_PLACEHOLDER } from './page-headers.js';
import { createWeChatLogin } from './wxlogin/wechat.js';

/** A built web app as Vite writes it with html.cspNonce: the placeholder where each answer's nonce goes. */
const SHELL = `<!doctype html><html><head>
<meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}" />
<script type="module" crossorigin src="/assets/app-1234.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script>
</head><body><div id="root">shell</div></body></html>`;

let dist: string;
let t: TestApp;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-web-csp-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), SHELL);
  fs.writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await startTestApp({ webDist: dist, seed: false });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** The CSP as directive → sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function nonceIn(res: LightMyRequestResponse): string {
  const style = csp(res).get('style-src') ?? [];
  const nonce = style.find((s) => s.startsWith("'nonce-"));
  expect(nonce).toBeDefined();
  return nonce!.slice("'nonce-".length, -1);
}

describe('headers of the pages (issue 19 item 7)', () => {
  it('the study list answers a CSP with scripts and styles from this origin only, and the other page headers', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url: '/studies' });
      expect(res.statusCode).toBe(200);
      const policy = csp(res);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(policy.get('script-src-attr')).toEqual(["'none'"]);
      expect(policy.get('style-src')).toEqual(["'self'", `'nonce-${nonceIn(res)}'`]);
      expect(policy.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
      expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
      expect(policy.get('worker-src')).toEqual(["'self'"]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'self'"]);
      expect(policy.get('form-action')).toEqual(["'self'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['content-security-policy']).not.toContain("'unsafe-eval'");
      // Style attributes are the one inline thing allowed; no inline script, no <style> without the nonce.
      expect([...policy].filter(([, sources]) => sources.includes("'unsafe-inline'")).map(([d]) => d)).toEqual([
        'style-src-attr',
      ]);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      // the consultation's video room: camera, microphone and screen capture for this origin only
      expect(res.headers['permissions-policy']).toMatch(/(^|, )camera=\(self\)/);
      expect(res.headers['permissions-policy']).toMatch(/(^|, )microphone=\(self\)/);
      expect(res.headers['permissions-policy']).toMatch(/(^|, )display-capture=\(self\)/);
      expect(res.headers['permissions-policy']).toMatch(/(^|, )geolocation=\(\)/);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('puts a fresh nonce into each shell, the same as its CSP’s, and never serves the placeholder', async () => {
    const seen = new Set<string>();
    for (const url of ['/studies', '/studies', '/login', '/index.html', '/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const nonce = nonceIn(res);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(res.body).not.toContain(CSP_NONCE_PLACEHOLDER);
      expect(res.body).toContain(`<meta property="csp-nonce" nonce="${nonce}" />`);
      expect(res.body).toContain(`src="/assets/app-1234.js" nonce="${nonce}"`);
      seen.add(nonce);
    }
    expect(seen.size).toBe(5);
  });

  it.each([
    '/reports/s?link=abcdefghijklmnopqrstuvwxyz012345',
    '/upload?token=t0k3n',
    '/viewer/abc.def',
    '/web-report?groupId=g',
    '/mobileSignature?code=123456',
    '/attachments/upload?code=123456',
  ])('%s (a credential in its address) is sent on as no referrer and never indexed', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(csp(res).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('without FRAME_ANCESTORS no page can be framed, /web included', async () => {
    for (const url of ['/web?groupId=g', '/web-report?groupId=g', '/studies']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(csp(res).get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('assets carry the policy too (the viewer’s decode worker runs under it)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(csp(res).get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('API and DICOMweb answers keep nosniff and no-store and carry no page policy', async () => {
    for (const url of ['/yyp/api/v1/health', '/yyp/api/v1/no/such', '/dicom-web/studies', '/dicom-web/no/such']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['permissions-policy']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
    const health = await t.app.inject({ method: 'GET', url: '/yyp/api/v1/health' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['cache-control']).toBe('no-store');
  });
});

describe('a deployment with FRAME_ANCESTORS and blobs in S3', () => {
  let db: TestDatabase;
  let app: FastifyInstance;
  const his = ['https://his.example.org', 'https://*.hospital.example.cn:8443'];
  beforeAll(async () => {
    db = await createTestDatabase();
    const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-csp-uploads-'));
    ({ app } = await buildApp({
      db: db.database.db,
      blobs: new S3BlobStore({
        bucket: 'yyp',
        region: 'us-east-1',
        endpoint: 'http://minio.internal:9000',
        publicEndpoint: 'https://files.example.org',
        accessKeyId: 'AKID',
        secretAccessKey: 'SECRET',
        forcePathStyle: true,
      }),
      dicomAet: 'YYP',
      uploadDir,
      clock: new TestClock(),
      jwtSecret: TEST_SECRET,
      tokenTtlSeconds: 3600,
      bodyLimitBytes: 64 * 1024,
      webDist: dist,
      frameAncestors: his,
      // WeChat login on: its avatars come from WeChat's hosts.
      wxLogin: createWeChatLogin({
        appId: 'wx0123456789abcdef',
        appSecret: '0123456789abcdef0123456789abcdef',
        openBase: 'https://open.weixin.qq.com',
        apiBase: 'https://api.weixin.qq.com',
      }),
      jobIntervalMs: 0,
      purgeIntervalMs: 0,
    }));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('lets the configured origins frame /web and /web-report, and only those pages', async () => {
    for (const url of ['/web?groupId=g&signature=s', '/web-report?groupId=g', '/web/']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('shell');
      expect(csp(res).get('frame-ancestors')).toEqual(his);
      // X-Frame-Options cannot name origins: left out where frame-ancestors allows some.
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.body).toContain(`nonce="${nonceIn(res)}"`);
    }
    for (const url of ['/studies', '/viewer/abc', '/reports/s?link=x', '/login', '/webx', '/web-reports']) {
      const res = await app.inject({ method: 'GET', url });
      expect(csp(res).get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('allows images from and uploads to the bucket’s public endpoint, not the server’s own one; WeChat’s avatars as images only', async () => {
    const policy = csp(await app.inject({ method: 'GET', url: '/studies' }));
    expect(policy.get('img-src')).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https://files.example.org',
      'https://thirdwx.qlogo.cn',
      'https://wx.qlogo.cn',
    ]);
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://files.example.org']);
  });
});

describe('blobOriginsOf', () => {
  const store = (settings: Partial<ConstructorParameters<typeof S3BlobStore>[0]>) =>
    new S3BlobStore({
      bucket: 'yyp-images',
      region: 'cn-north-1',
      accessKeyId: 'AKID',
      secretAccessKey: 'SECRET',
      forcePathStyle: false,
      ...settings,
    });

  it('is the origin presigned URLs point at, whatever the addressing style', async () => {
    await expect(blobOriginsOf(store({ endpoint: 'http://127.0.0.1:9000', forcePathStyle: true }))).resolves.toEqual([
      'http://127.0.0.1:9000',
    ]);
    await expect(blobOriginsOf(store({ endpoint: 'https://oss.example.org' }))).resolves.toEqual([
      'https://yyp-images.oss.example.org',
    ]);
    const [aws] = await blobOriginsOf(store({}));
    expect(aws).toMatch(/^https:\/\/yyp-images\.s3\.cn-north-1\.amazonaws\.com(\.cn)?$/);
  });

  it('is nothing for the local store, whose links are this server’s paths', async () => {
    expect(await blobOriginsOf(t.blobs)).toEqual([]);
  });
});
