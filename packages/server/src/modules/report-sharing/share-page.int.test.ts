import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-share-web-'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root">shell</div>');
  t = await startTestApp({ webDist: dist, seed: false });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the pages a link opens', () => {
  it.each(['/reports/s?link=abc', '/web?groupId=g&signature=s', '/web-report?groupId=g'])(
    'answer the app shell for %s with no referrer and no indexing',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('shell');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(String(res.headers['x-robots-tag'])).toContain('noindex');
    },
  );
  it('lets other pages be indexed (no page sends a referrer: platform/page-headers.ts)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/webinar' });
    expect(res.headers['x-robots-tag']).toBeUndefined();
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });
});
