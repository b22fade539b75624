#!/usr/bin/env node
// bench/web-bytes: the bytes a browser moves for a cold page load (issue 20 item 15). Starts a
// built yyp on PGlite, stores a small CT (our generator, STOW-RS) and opens, each in a new browser
// context (empty cache) of Debian's Chromium:
//   - /login, until its form is shown and the network is idle;
//   - /studies, signed in (the login answer put in localStorage first, so no /login load is
//     counted), until the study list is shown and the network is idle;
//   - the viewer (/viewer/{openpath}) until the whole series is loaded.
// Bytes come from the Chrome DevTools protocol: Network.loadingFinished's encodedDataLength is
// what went over the wire (headers included); the decoded body sizes are summed beside it. Each
// figure is the median of BENCH_RUNS (default 3) cold loads, split by kind (app: the document,
// scripts, styles, WebAssembly, fonts; api: /yyp/ answers; images: DICOMweb frames and metadata).
//
// Usage: npm run build && node bench/web-bytes/index.mjs [--label after] [--main path/to/main.js] [--rev 1234abc]
//   --label names the build measured (default "after"); --main is another build's server main.js
//   (its web dist beside it, ../../web/dist), e.g. the build before compression:
//     git worktree add /tmp/before <rev> … or copies of packages/{server,web}/dist under
//     /tmp/before/packages with /tmp/before/node_modules a link to this checkout's node_modules;
//     node bench/web-bytes/index.mjs --label before --main /tmp/before/packages/server/dist/main.js
// The results of each label are kept in bench/results/web-bytes.json (a run replaces its label's).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { generateCtFiles, stow } from '../lib/dicom-tools.mjs';
import { startYyp, yypApi as api, yypLogin as login } from '../lib/yyp.mjs';
import { machine, round, runBounded } from '../lib/util.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const OUT = path.join(root, 'bench/results/web-bytes.json');
const RUNS = Number(process.env.BENCH_RUNS || 3);
const SLICES = Number(process.env.BENCH_SLICES || 20);
const { values: args } = parseArgs({
  options: { label: { type: 'string', default: 'after' }, main: { type: 'string' }, rev: { type: 'string' } },
});

function headRev() {
  try {
    const rev = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: root,
      encoding: 'utf8',
    });
    return dirty.trim() ? `${rev} (with uncommitted changes)` : rev;
  } catch {
    return null;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function kindOf(url, type) {
  const { pathname } = new URL(url);
  if (pathname.startsWith('/dicom-web') || pathname.includes('/frames') || pathname.includes('/metadata')) {
    return 'images';
  }
  if (pathname.startsWith('/yyp/')) return 'api';
  if (type === 'Document' || /\.(js|mjs|css|wasm|woff2?|ttf|svg|png|ico)$/.test(pathname)) return 'app';
  return 'other';
}

/** One cold load in a new context: `open` navigates and waits; the network's bytes by kind. */
async function coldLoad(browser, open, tokenInfo) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (tokenInfo) {
    await context.addInitScript(
      ([key, value]) => {
        if (!localStorage.getItem(key)) localStorage.setItem(key, value);
      },
      ['yyp.accessToken', JSON.stringify({ username: 'doctor', ...tokenInfo })],
    );
  }
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  const cdp = await context.newCDPSession(page);
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    requests.set(e.requestId, { url: e.request.url, type: e.type, decoded: 0, wire: 0, encoding: '' });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    r.encoding = headers['content-encoding'] ?? '';
    r.status = e.response.status;
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.decoded += e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.wire = e.encodedDataLength;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  const started = Date.now();
  await open(page);
  await page.waitForLoadState('networkidle');
  const ms = Date.now() - started;
  await context.close();
  const done = [...requests.values()].filter((r) => r.wire > 0 && !r.url.startsWith('data:'));
  const sums = { app: 0, api: 0, images: 0, other: 0 };
  const decoded = { app: 0, api: 0, images: 0, other: 0 };
  const encodings = {};
  for (const r of done) {
    const kind = kindOf(r.url, r.type);
    sums[kind] += r.wire;
    decoded[kind] += r.decoded;
    const key = r.encoding || 'identity';
    encodings[key] = (encodings[key] ?? 0) + 1;
  }
  const total = done.reduce((n, r) => n + r.wire, 0);
  const decodedTotal = done.reduce((n, r) => n + r.decoded, 0);
  const largest = [...done]
    .sort((a, b) => b.wire - a.wire)
    .slice(0, 5)
    .map((r) => ({
      path: new URL(r.url).pathname.replace(/^\/viewer\/[^/]+/, '/viewer/[openpath]'),
      wire: r.wire,
      decoded: r.decoded,
      encoding: r.encoding || 'identity',
    }));
  return {
    ms,
    requests: done.length,
    largest,
    wireBytes: { total, ...sums },
    decodedBytes: { total: decodedTotal, ...decoded },
    encodings,
  };
}

function summary(runs) {
  const pick = (f) => median(runs.map(f));
  return {
    wireBytes: Object.fromEntries(Object.keys(runs[0].wireBytes).map((k) => [k, pick((r) => r.wireBytes[k])])),
    decodedBytes: Object.fromEntries(Object.keys(runs[0].decodedBytes).map((k) => [k, pick((r) => r.decodedBytes[k])])),
    requests: pick((r) => r.requests),
    loadMs: pick((r) => r.ms),
    encodings: runs[0].encodings,
    largest: runs[0].largest,
  };
}

async function main() {
  const target = await startYyp({ store: 'pglite', ...(args.main ? { main: path.resolve(args.main) } : {}) });
  const { files } = await generateCtFiles(SLICES, { perStudy: SLICES, prefix: 'webbytes' });
  const stored = await stow(target, files, { batchSize: 50, concurrency: 2 });
  if (stored.stored !== SLICES) throw new Error(`stored ${stored.stored} of ${SLICES}`);
  const tokenInfo = await login(target, 'doctor');
  const page = await api(target, tokenInfo.accessToken, 'exams/page-query', { filters: [], limit: 5 });
  const exam = page.exams.find((e) => e.modality === 'CT');
  const viewer = await api(target, tokenInfo.accessToken, `viewers/${exam.id}/path`, { reportId: exam.id });

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const pages = {
    login: {
      tokenInfo: null,
      open: async (p) => {
        await p.goto(`${target.httpBase}/login`);
        await p.getByPlaceholder('用户名').waitFor();
      },
    },
    studies: {
      tokenInfo,
      open: async (p) => {
        await p.goto(`${target.httpBase}/studies`);
        await p.locator('.ant-table-tbody').first().waitFor();
      },
    },
    viewer: {
      tokenInfo,
      open: async (p) => {
        await p.goto(`${target.httpBase}${viewer.url}`);
        await p.waitForFunction(() => performance.getEntriesByName('yyp-viewer:stack-loaded:0').length > 0);
      },
    },
  };
  const measured = {};
  try {
    for (const [name, { open, tokenInfo: t }] of Object.entries(pages)) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await coldLoad(browser, open, t));
      measured[name] = summary(runs);
      const s = measured[name];
      console.log(
        `${args.label} ${name}: ${round(s.wireBytes.total / 1e6, 3)} MB over the wire (app ${round(s.wireBytes.app / 1e6, 3)}, ` +
          `api ${round(s.wireBytes.api / 1e3, 1)} kB, images ${round(s.wireBytes.images / 1e6, 3)} MB), ` +
          `${round(s.decodedBytes.total / 1e6, 3)} MB decoded, ${s.requests} requests, ${JSON.stringify(s.encodings)}`,
      );
    }
  } finally {
    await browser.close();
    await target.stop();
  }

  const previous = fs.existsSync(OUT) ? JSON.parse(fs.readFileSync(OUT, 'utf8')) : {};
  const builds = { ...(previous.builds ?? {}) };
  builds[args.label] = {
    date: new Date().toISOString(),
    // --rev names the commit the measured build was made from (default: this checkout's HEAD).
    rev: args.rev ?? (args.main ? null : headRev()),
    server: args.main ? path.relative(root, path.resolve(args.main)) || args.main : 'packages/server/dist/main.js',
    version: target.version,
    pages: measured,
  };
  const result = {
    benchmark: 'web-bytes',
    description:
      'Bytes a cold page load moves (CDP Network.loadingFinished encodedDataLength, headers included; median of ' +
      `${RUNS} loads, each in a new browser context). app = document, scripts, styles, WebAssembly; api = /yyp/ ` +
      'answers; images = DICOMweb metadata and frames (never compressed: already compressed or binary).',
    machine: machine(),
    browser: 'Debian Chromium (--disable-gpu), playwright-core; sends Accept-Encoding: gzip, deflate, br, zstd',
    study: { modality: 'CT', slices: SLICES, rows: 512, columns: 512 },
    runs: RUNS,
    builds,
  };
  if (builds.before && builds.after) {
    result.ratio = Object.fromEntries(
      Object.keys(builds.after.pages)
        .filter((k) => builds.before.pages[k])
        .map((k) => [
          k,
          {
            total: round(builds.after.pages[k].wireBytes.total / builds.before.pages[k].wireBytes.total, 3),
            app: round(builds.after.pages[k].wireBytes.app / builds.before.pages[k].wireBytes.app, 3),
          },
        ]),
    );
  }
  fs.writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`written to ${path.relative(root, OUT)}`);
}

await runBounded(main, 900);
