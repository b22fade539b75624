import type { Browser, BrowserContext, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, openPage, screenshot } from './support.js';

/**
 * The built app is served compressed (issue 20 item 15): a cold /login in Chromium gets its scripts
 * and styles in brotli (the build's .br copies), cached as immutable, and renders; the bundles name
 * no source map and no source map is served.
 */

let browser: Browser;
let context: BrowserContext | undefined;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('compressed web app', () => {
  it('loads /login with brotli scripts and styles, and serves no source map', async () => {
    const opened = await openPage(browser);
    context = opened.context;
    const page = opened.page;
    const assets: Response[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/assets/')) assets.push(r);
    });
    await page.goto('/login');
    await page.getByPlaceholder('用户名').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'login-compressed');

    const scripts = assets.filter((r) => /\.(js|css)$/.test(new URL(r.url()).pathname));
    expect(scripts.length).toBeGreaterThan(5);
    let large = 0;
    for (const r of scripts) {
      expect(r.status()).toBe(200);
      expect(await r.headerValue('cache-control')).toBe('public, max-age=31536000, immutable');
      const body = await r.body();
      if (body.length >= 1024) {
        large++;
        expect(await r.headerValue('content-encoding'), r.url()).toBe('br');
      }
      expect(body.toString('utf8')).not.toContain('sourceMappingURL=');
    }
    expect(large).toBeGreaterThan(3);

    // The page's shell itself: compressed on the fly (it carries a fresh nonce each time).
    const shell = await fetch(`${baseUrl()}/login`, { headers: { 'accept-encoding': 'br' } });
    expect(shell.headers.get('content-encoding')).toBe('br');
    expect(shell.headers.get('cache-control')).toBe('no-cache');

    // A source map is kept out of the served folder: 404, not the app shell.
    const map = await fetch(`${scripts[0]!.url()}.map`);
    expect(map.status).toBe(404);
  });
});
