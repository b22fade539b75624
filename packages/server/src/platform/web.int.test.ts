import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.js';

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-web-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root">shell</div>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  t = await startTestApp({ webDist: dist, seed: false });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it.each(['/', '/login', '/studies', '/studies/e1/reports/r1?x=1', '/settings/profile', '/no/such/page'])(
    'answers the app shell for %s (path-style routes)',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('shell');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves hashed assets with a long cache', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(1)');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('keeps API paths and non-GET methods out of the fallback', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/yyp/api/v1/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('NotFound');
    const post = await t.app.inject({ method: 'POST', url: '/studies' });
    expect(post.statusCode).toBe(404);
    expect(post.json().code).toBe('NotFound');
  });

  it('does not serve files outside the folder', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/../../etc/passwd' });
    expect(res.body).not.toContain('root:');
  });
});
