#!/usr/bin/env node
/* global document, window, KeyboardEvent -- code run inside the page by page.evaluate */
// bench/viewer: the in-browser viewer at server-local speed. Stores a 300-slice 512×512 CT (our
// generator, STOW-RS) in a fresh yyp on PGlite, opens /viewer/{openpath} in Debian's Chromium and
// reads the page's performance marks: open → first rendered image, and the whole series loaded
// into the cache. Then it scrolls through all 300 slices, each key as soon as the previous image
// is rendered, and counts images shown per second. Bytes transferred come from the resource timings.
// Each figure is the median of BENCH_RUNS (default 3) cold page loads (new browser context).
// No OHIF or Orthanc viewer is packaged for Debian here, so ours is recorded alone.
// Usage: npm run build && node bench/viewer/index.mjs
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { generateCtFiles, stow } from '../lib/dicom-tools.mjs';
import { startYyp } from '../lib/yyp.mjs';
import { machine, round, runBounded } from '../lib/util.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const SLICES = Number(process.env.BENCH_SLICES || 300);
const RUNS = Number(process.env.BENCH_RUNS || 3);
const GOAL = { firstImageMs: 1000, scrollFps: 30 };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function api(target, token, urlPath, body) {
  const res = await fetch(`${target.httpBase}/yyp/api/v1/${urlPath}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${urlPath} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function login(target, username) {
  const res = await fetch(`${target.httpBase}/yyp/api/v1/accounts/login-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'Yyp@2026' }),
  });
  return (await res.json()).accessToken;
}

/** One cold open of the viewer: marks, bytes, then a scroll through every slice. */
async function openOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('yyp-viewer:first-image:0').length > 0);
  await page.waitForFunction(() => performance.getEntriesByName('yyp-viewer:stack-loaded:0').length > 0);
  const marks = await page.evaluate(() => {
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
    const resources = performance.getEntriesByType('resource');
    const sum = (filter) =>
      resources.filter(filter).reduce((n, r) => n + (r.transferSize || r.encodedBodySize || 0), 0);
    return {
      navigationToOpen: at('yyp-viewer:open'),
      open: at('yyp-viewer:open'),
      stackStart: at('yyp-viewer:stack-start:0'),
      firstImage: at('yyp-viewer:first-image:0'),
      stackLoaded: at('yyp-viewer:stack-loaded:0'),
      imageBytes: sum((r) => r.name.includes('/frames/')),
      metadataBytes: sum((r) => r.name.includes('/metadata')),
      appBytes: sum((r) => /\.(js|css|wasm)(\?|$)/.test(r.name)),
      totalBytes: sum(() => true),
    };
  });
  // Scroll: ArrowDown through every slice, the next key as soon as the previous image is on
  // screen (as fast as the viewer can show them); frames per second = slices shown / time.
  await page.keyboard.press('Home');
  await page.waitForTimeout(300);
  const scroll = await page.evaluate(async (slices) => {
    const element = document.querySelector('[data-testid="viewport-0"] .viewer-element');
    const rendered = () =>
      new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          element.removeEventListener('CORNERSTONE_IMAGE_RENDERED', done);
          resolve(true);
        };
        const timer = setTimeout(() => {
          element.removeEventListener('CORNERSTONE_IMAGE_RENDERED', done);
          resolve(false);
        }, 1000);
        element.addEventListener('CORNERSTONE_IMAGE_RENDERED', done);
      });
    let shown = 0;
    const start = performance.now();
    for (let i = 1; i < slices; i++) {
      const next = rendered();
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
      if (await next) shown++;
    }
    const seconds = (performance.now() - start) / 1000;
    const text = document.querySelector('[data-testid="instance-0"]')?.textContent ?? '';
    return { rendered: shown, seconds, fps: shown / seconds, lastOverlay: text };
  }, SLICES);
  await context.close();
  return {
    firstImageMs: marks.firstImage - marks.open,
    pageToFirstImageMs: marks.firstImage,
    seriesLoadedMs: marks.stackLoaded - marks.open,
    imageBytes: marks.imageBytes,
    metadataBytes: marks.metadataBytes,
    appBytes: marks.appBytes,
    totalBytes: marks.totalBytes,
    scroll,
  };
}

async function main() {
  const target = await startYyp({ store: 'pglite' });
  const { files, bytes } = await generateCtFiles(SLICES, { perStudy: SLICES, prefix: 'viewer' });
  const stored = await stow(target, files, { batchSize: 50, concurrency: 2 });
  if (stored.stored !== SLICES) throw new Error(`stored ${stored.stored} of ${SLICES}`);
  const token = await login(target, 'doctor');
  const page = await api(target, token, 'exams/page-query', { filters: [], limit: 5 });
  const exam = page.exams.find((e) => e.modality === 'CT');
  const viewer = await api(target, token, `viewers/${exam.id}/path`, { reportId: exam.id });
  const url = `${target.httpBase}${viewer.url}`;

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const runs = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const r = await openOnce(browser, url);
      console.log(
        `run ${i + 1}: first image ${round(r.firstImageMs)} ms, ${SLICES} slices loaded ${round(r.seriesLoadedMs)} ms, ` +
          `scroll ${round(r.scroll.fps)} fps (${r.scroll.rendered} rendered), ${round(r.totalBytes / 1e6, 1)} MB`,
      );
      runs.push(r);
    }
  } finally {
    await browser.close();
  }
  const result = {
    benchmark: 'viewer',
    date: new Date().toISOString(),
    machine: machine(),
    browser: 'Debian Chromium (--disable-gpu), playwright-core',
    study: { modality: 'CT', slices: SLICES, rows: 512, columns: 512, bitsAllocated: 16, storedBytes: bytes },
    runs: RUNS,
    goal: GOAL,
    firstImageMs: round(median(runs.map((r) => r.firstImageMs))),
    pageToFirstImageMs: round(median(runs.map((r) => r.pageToFirstImageMs))),
    seriesLoadedMs: round(median(runs.map((r) => r.seriesLoadedMs))),
    scrollFps: round(median(runs.map((r) => r.scroll.fps))),
    bytes: {
      images: median(runs.map((r) => r.imageBytes)),
      metadata: median(runs.map((r) => r.metadataBytes)),
      app: median(runs.map((r) => r.appBytes)),
      total: median(runs.map((r) => r.totalBytes)),
    },
    peer: 'none: neither OHIF nor an Orthanc web viewer is available from Debian packages on this machine',
    perRun: runs,
  };
  result.goalMet = result.firstImageMs <= GOAL.firstImageMs && result.scrollFps >= GOAL.scrollFps;
  const out = path.join(root, 'bench/results/viewer.json');
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `viewer: first image ${result.firstImageMs} ms (goal ≤ ${GOAL.firstImageMs}), ${SLICES} slices loaded in ` +
      `${result.seriesLoadedMs} ms, scroll ${result.scrollFps} fps (goal ≥ ${GOAL.scrollFps}); written to ${path.relative(root, out)}`,
  );
  await target.stop();
}

await runBounded(main, 900);
