#!/usr/bin/env node
/* global document, window, KeyboardEvent -- code run inside the page by page.evaluate */
// bench/viewer: yyp's viewer and WADO-RS frames against OHIF 3.13.2 on Orthanc, on one machine.
//
//   npm run build && node bench/viewer/index.mjs
//
// A 300-slice 512×512 CT (our generator) is stored by STOW-RS into a fresh yyp (PGlite, or
// BENCH_STORE=postgres) and a fresh Orthanc 1.10 with its DICOMweb plugin (Debian packages,
// installed with apt-get when missing; tuned as bench/ingest starts it). Then, interleaved so that
// the load of a shared host falls on both alike (ratios are what count):
// - frames: every frame of the series fetched one by one over keep-alive, and 6 requests in
//   flight (a browser's per-host limit on HTTP/1.1), from yyp's DICOMweb (bearer token), from
//   yyp's viewer calls (signed viewer path, what its viewer uses) and from Orthanc's DICOMweb;
//   BENCH_ROUNDS rounds (default 5), the first reported apart (nothing remembered yet); with
//   BENCH_BASELINE_MAIN=<another build's packages/server/dist/main.js>, that build's too (A/B);
// - series load in Chromium (playwright-core, Debian chromium): yyp's /viewer/{openpath} and OHIF
//   (npm @ohif/app's dist, bench/lib/ohif.mjs, Orthanc behind a same-origin proxy) opened cold
//   (new browser context), timed from navigation to the moment the last of the series' 300 frame
//   answers is received (the same network signal for both), BENCH_RUNS times each (default 3).
//   yyp's own marks (first image rendered, stack loaded) and a scroll through every slice are
//   recorded beside it.
// Writes bench/results/viewer.json with medians, ratios and the machine's load.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { generateCtFiles, stow } from '../lib/dicom-tools.mjs';
import { fetchFrames, firstStudyUid, frameUrls } from '../lib/frames.mjs';
import { OHIF_VERSION, ensureOhif, serveOhif } from '../lib/ohif.mjs';
import { ensureOrthancInstalled, startOrthanc } from '../lib/orthanc.mjs';
import { startYyp } from '../lib/yyp.mjs';
import { LOOPBACK, cpuCalibrationMs, machine, makeTempDir, round, runBounded } from '../lib/util.mjs';
import { viewerFrameUrls, viewerPath } from './targets.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const SLICES = Number(process.env.BENCH_SLICES || 300);
const RUNS = Number(process.env.BENCH_RUNS || 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const STORE = process.env.BENCH_STORE === 'postgres' ? 'postgres' : 'pglite';
const BASELINE_MAIN = process.env.BENCH_BASELINE_MAIN;
const FRAME_BYTES = 512 * 512 * 2;
const GOAL = {
  firstImageMs: 1000,
  scrollFps: 30,
  framesVsOrthanc: 1,
  seriesLoadVsOhif: 1,
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : round((s[m - 1] + s[m]) / 2, 2);
};
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? round(a / b, 2) : null);
const log = (msg) => console.error(`[viewer] ${msg}`);

/**
 * One cold open of a viewer page: from navigation until every frame answer of the series is in
 * (distinct /frames/ URLs of the series), with the first one's time and the bytes received.
 */
async function openUntilLoaded(browser, url, seriesUid, { after } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Nothing leaves loopback (OHIF would ask for fonts and a service-worker script).
  await context.route(
    (u) => u.hostname !== LOOPBACK && u.hostname !== 'localhost',
    (route) => route.abort(),
  );
  const page = await context.newPage();
  page.setDefaultTimeout(180_000);
  const frames = new Map();
  let firstFrameMs = null;
  let allDone;
  const loaded = new Promise((resolve) => (allDone = resolve));
  let start = 0;
  page.on('requestfinished', (request) => {
    const u = request.url();
    if (!u.includes('/frames/') || !u.includes(seriesUid) || frames.has(u)) return;
    const at = performance.now() - start;
    frames.set(u, at);
    firstFrameMs ??= at;
    void request
      .response()
      .then((r) => r?.headerValue('content-length'))
      .then((n) => frames.set(u, { at, bytes: Number(n) || 0 }))
      .catch(() => undefined);
    if (frames.size >= SLICES) allDone(at);
  });
  start = performance.now();
  await page.goto(url);
  const seriesLoadedMs = await Promise.race([
    loaded,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`${url}: ${frames.size} of ${SLICES} frames after 180 s`)), 180_000),
    ),
  ]);
  await new Promise((r) => setTimeout(r, 200)); // the last content-length lookups
  const bytes = [...frames.values()].reduce((n, f) => n + (f.bytes ?? 0), 0);
  const extra = after ? await after(page) : {};
  await context.close();
  return { seriesLoadedMs, firstFrameMs, frameRequests: frames.size, frameBytes: bytes, ...extra };
}

/** yyp's marks and the scroll through every slice, as this bench measured them before. */
async function yypMarksAndScroll(page) {
  await page.waitForFunction(() => performance.getEntriesByName('yyp-viewer:stack-loaded:0').length > 0);
  const marks = await page.evaluate(() => {
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
    return {
      open: at('yyp-viewer:open'),
      firstImage: at('yyp-viewer:first-image:0'),
      stackLoaded: at('yyp-viewer:stack-loaded:0'),
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
    return { rendered: shown, seconds: round2(seconds), fps: round2(shown / seconds) };
    function round2(n) {
      return Math.round(n * 100) / 100;
    }
  }, SLICES);
  return {
    firstImageMs: marks.firstImage - marks.open,
    pageToFirstImageMs: marks.firstImage,
    stackLoadedMs: marks.stackLoaded - marks.open,
    pageToStackLoadedMs: marks.stackLoaded,
    scroll,
  };
}

/** Frames one by one and 6 at a time from each source, in an order that rotates each round. */
async function frameRounds(sources) {
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = sources.map((_, i) => sources[(i + r) % sources.length]);
    const round_ = {};
    for (const parallel of [1, 6]) {
      for (const s of order) {
        const m = await fetchFrames(s.urls, { headers: s.headers, parallel, minBytes: FRAME_BYTES });
        (round_[s.name] ??= {})[parallel === 1 ? 'sequential' : 'parallel6'] = m;
      }
    }
    log(
      `frames round ${r + 1}: ` +
        sources
          .map(
            (s) =>
              `${s.name} ${round_[s.name].sequential.framesPerSecond}/s seq, ${round_[s.name].parallel6.framesPerSecond}/s ×6`,
          )
          .join('; '),
    );
    rounds.push(round_);
  }
  return rounds;
}

function summarizeFrames(rounds, names) {
  const pick = (rs, name, mode, key) => rs.map((r) => r[name][mode][key]);
  const warm = rounds.length > 1 ? rounds.slice(1) : rounds;
  const out = {};
  for (const name of names) {
    out[name] = {};
    for (const mode of ['sequential', 'parallel6']) {
      out[name][mode] = {
        framesPerSecond: median(pick(warm, name, mode, 'framesPerSecond')),
        msPerFrame: median(pick(warm, name, mode, 'msPerFrame')),
        seriesMs: median(pick(warm, name, mode, 'ms')),
        p50Ms: median(pick(warm, name, mode, 'p50Ms')),
        p95Ms: median(pick(warm, name, mode, 'p95Ms')),
        firstRound: { framesPerSecond: rounds[0][name][mode].framesPerSecond, seriesMs: rounds[0][name][mode].ms },
        rounds: pick(rounds, name, mode, 'framesPerSecond'),
      };
    }
  }
  return out;
}

async function main() {
  ensureOrthancInstalled();
  const dist = await ensureOhif();
  const load = { before: os.loadavg().map((n) => round(n, 2)), cpuCalibrationMsBefore: cpuCalibrationMs() };

  log(`starting yyp (${STORE}) and Orthanc, storing ${SLICES} CT slices into each`);
  // The web app as built now, copied aside: a build running meanwhile (the tree is shared) must
  // not pull the viewer's files from under an open page.
  const webDist = makeTempDir('yyp-bench-web-');
  fs.cpSync(path.join(root, 'packages/web/dist'), webDist, { recursive: true });
  const yyp = await startYyp({ store: STORE, env: { WEB_DIST: webDist } });
  // Orthanc gzips every answer a client accepts compressed (HttpCompressionEnabled, on by default):
  // 512 KB frames cost it ~50× more than the read. Tuned as a deployment that serves viewers would be.
  const orthanc = await startOrthanc({ config: { HttpCompressionEnabled: false } });
  const ohif = await serveOhif(dist, orthanc.dicomWebBase);
  // BENCH_BASELINE_MAIN: another build's main.js (e.g. the commit before a change) measured beside.
  const baseline = BASELINE_MAIN ? await startYyp({ store: STORE, main: BASELINE_MAIN }) : null;
  const { files, bytes } = await generateCtFiles(SLICES, { perStudy: SLICES, prefix: 'viewer' });
  for (const target of [yyp, orthanc, ...(baseline ? [baseline] : [])]) {
    const stored = await stow(target, files, { batchSize: 50, concurrency: 2 });
    if (stored.stored !== SLICES) throw new Error(`${target.dicomWebBase}: stored ${stored.stored} of ${SLICES}`);
  }
  const auth = { authorization: `Bearer ${yyp.token}` };
  const studyUid = await firstStudyUid(yyp.dicomWebBase, auth);
  if ((await firstStudyUid(orthanc.dicomWebBase)) !== studyUid) throw new Error('the archives hold different studies');
  const yypWeb = await frameUrls(yyp.dicomWebBase, studyUid, auth);
  const seriesUid = /\/series\/([^/]+)\//.exec(yypWeb[0])[1];
  const sources = [
    { name: 'yypDicomWeb', urls: yypWeb, headers: auth },
    { name: 'yypViewer', ...(await viewerFrameUrls(yyp, studyUid)) },
    { name: 'orthanc', urls: await frameUrls(orthanc.dicomWebBase, studyUid), headers: {} },
  ];
  if (baseline) {
    const baseAuth = { authorization: `Bearer ${baseline.token}` };
    sources.push(
      { name: 'baselineDicomWeb', urls: await frameUrls(baseline.dicomWebBase, studyUid, baseAuth), headers: baseAuth },
      { name: 'baselineViewer', ...(await viewerFrameUrls(baseline, studyUid)) },
    );
  }
  for (const s of sources) if (s.urls.length !== SLICES) throw new Error(`${s.name}: ${s.urls.length} frame URLs`);

  log(`frames: ${ROUNDS} rounds, one by one and 6 in flight`);
  const rounds = await frameRounds(sources);
  const frames = summarizeFrames(
    rounds,
    sources.map((s) => s.name),
  );
  // What the same-origin proxy in front of Orthanc adds for OHIF (yyp's viewer has none).
  const proxied = await frameUrls(ohif.dicomWebBase, studyUid);
  const viaProxy = await fetchFrames(proxied, { parallel: 6, minBytes: FRAME_BYTES });

  log(`series load in Chromium: ${RUNS} cold opens each, interleaved`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const yypRuns = [];
  const ohifRuns = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      // A fresh viewer path per open, as the study list makes one per click.
      const yypUrl = (await viewerPath(yyp, studyUid)).url;
      const ohifUrl = `${ohif.origin}/viewer?StudyInstanceUIDs=${studyUid}`;
      const openYyp = async () =>
        yypRuns.push(await openUntilLoaded(browser, yypUrl, seriesUid, { after: yypMarksAndScroll }));
      const openOhif = async () => ohifRuns.push(await openUntilLoaded(browser, ohifUrl, seriesUid));
      if (i % 2 === 0) {
        await openYyp();
        await openOhif();
      } else {
        await openOhif();
        await openYyp();
      }
      const [y, o] = [yypRuns.at(-1), ohifRuns.at(-1)];
      log(
        `run ${i + 1}: yyp series ${round(y.seriesLoadedMs)} ms (first image ${round(y.firstImageMs)} ms, ` +
          `scroll ${y.scroll.fps} fps); OHIF on Orthanc ${round(o.seriesLoadedMs)} ms`,
      );
    }
  } finally {
    await browser.close();
  }
  load.after = os.loadavg().map((n) => round(n, 2));
  load.cpuCalibrationMsAfter = cpuCalibrationMs();

  const yypSeries = round(median(yypRuns.map((r) => r.seriesLoadedMs)));
  const ohifSeries = round(median(ohifRuns.map((r) => r.seriesLoadedMs)));
  const seq = (n) => frames[n].sequential.framesPerSecond;
  const par = (n) => frames[n].parallel6.framesPerSecond;
  const result = {
    benchmark: 'viewer',
    date: new Date().toISOString(),
    machine: machine(),
    load: {
      ...load,
      note:
        'load averages (1, 5, 15 min) and the time of a fixed single-threaded workload before and after: ' +
        'figures from a loaded host are slower for both sides; the ratios are measured interleaved',
    },
    store: STORE,
    ...(baseline ? { baseline: { main: BASELINE_MAIN, version: baseline.version } } : {}),
    browser: 'Debian Chromium (--disable-gpu), playwright-core',
    peer: {
      archive: `Orthanc ${orthanc.version} (Debian) with its DICOMweb plugin, tuned as bench/ingest starts it, HTTP compression off`,
      viewer: `OHIF ${OHIF_VERSION} (npm @ohif/app dist), Orthanc behind a same-origin proxy`,
    },
    study: { modality: 'CT', slices: SLICES, rows: 512, columns: 512, bitsAllocated: 16, storedBytes: bytes },
    goal: GOAL,
    frames: {
      what:
        'every frame of the series (frames/1 of each instance) fetched from node over keep-alive; medians of ' +
        `rounds 2–${ROUNDS}, round 1 (nothing remembered yet) apart`,
      ...frames,
      orthancViaOhifProxyParallel6: { framesPerSecond: viaProxy.framesPerSecond, seriesMs: viaProxy.ms },
      ratios: {
        yypDicomWebVsOrthanc: {
          sequential: ratio(seq('yypDicomWeb'), seq('orthanc')),
          parallel6: ratio(par('yypDicomWeb'), par('orthanc')),
        },
        ...(baseline
          ? {
              yypDicomWebVsBaseline: {
                sequential: ratio(seq('yypDicomWeb'), seq('baselineDicomWeb')),
                parallel6: ratio(par('yypDicomWeb'), par('baselineDicomWeb')),
              },
              yypViewerVsBaseline: {
                sequential: ratio(seq('yypViewer'), seq('baselineViewer')),
                parallel6: ratio(par('yypViewer'), par('baselineViewer')),
              },
            }
          : {}),
        yypViewerVsOrthanc: {
          sequential: ratio(seq('yypViewer'), seq('orthanc')),
          parallel6: ratio(par('yypViewer'), par('orthanc')),
        },
      },
    },
    seriesLoad: {
      what: `navigation to the last of the series' ${SLICES} frame answers received, cold browser context; medians of ${RUNS}`,
      yypMs: yypSeries,
      ohifOnOrthancMs: ohifSeries,
      yypVsOhif: ratio(yypSeries, ohifSeries),
      firstFrameMs: {
        yyp: round(median(yypRuns.map((r) => r.firstFrameMs))),
        ohif: round(median(ohifRuns.map((r) => r.firstFrameMs))),
      },
      frameBytes: { yyp: median(yypRuns.map((r) => r.frameBytes)), ohif: median(ohifRuns.map((r) => r.frameBytes)) },
    },
    runs: RUNS,
    firstImageMs: round(median(yypRuns.map((r) => r.firstImageMs))),
    pageToFirstImageMs: round(median(yypRuns.map((r) => r.pageToFirstImageMs))),
    seriesLoadedMs: round(median(yypRuns.map((r) => r.stackLoadedMs))),
    scrollFps: round(median(yypRuns.map((r) => r.scroll.fps))),
    perRun: { yyp: yypRuns, ohif: ohifRuns },
    frameRounds: rounds,
  };
  result.goalMet = {
    firstImage: result.firstImageMs <= GOAL.firstImageMs,
    scroll: result.scrollFps >= GOAL.scrollFps,
    framesSequential: seq('yypViewer') >= seq('orthanc') && seq('yypDicomWeb') >= seq('orthanc'),
    framesParallel6: par('yypViewer') >= par('orthanc') && par('yypDicomWeb') >= par('orthanc'),
    seriesLoad: yypSeries <= ohifSeries,
  };
  const out = path.resolve(root, process.env.BENCH_OUT || 'bench/results/viewer.json');
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `frames/s sequential: yyp DICOMweb ${seq('yypDicomWeb')}, yyp viewer ${seq('yypViewer')}, Orthanc ${seq('orthanc')}; ` +
      `6 in flight: ${par('yypDicomWeb')}, ${par('yypViewer')}, ${par('orthanc')}\n` +
      `series load: yyp ${yypSeries} ms, OHIF on Orthanc ${ohifSeries} ms (ratio ${result.seriesLoad.yypVsOhif}); ` +
      `first image ${result.firstImageMs} ms, scroll ${result.scrollFps} fps; written to ${path.relative(root, out)}`,
  );
  await baseline?.stop();
  await ohif.stop();
  await orthanc.stop();
  await yyp.stop();
}

await runBounded(main, Number(process.env.BENCH_TIMEOUT_S || 1800));
