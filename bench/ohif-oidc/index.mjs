// OHIF signs in through yyp (issue 28 item 11; not in the suite): yyp with the demo seed on one
// loopback origin, OHIF (npm @ohif/app's dist, bench/lib/ohif.mjs without the proxy) on another,
// configured with yyp's /dicom-web as its data source and yyp as its OpenID Connect provider.
// Chromium opens OHIF, signs in on yyp's page, and must see the study list with every demo study,
// then open each study (its series thumbnails and an image) with no console error, no failed
// request and no token in any URL. Result: bench/results/ohif-oidc.json; screenshots under /tmp.
//
//   npm run build && node bench/ohif-oidc/index.mjs
/* global document, Image -- code run inside the page by page.evaluate */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { OHIF_VERSION, ensureOhif, serveOhif } from '../lib/ohif.mjs';
import {
  LOOPBACK,
  cleanupAll,
  makeTempDir,
  onCleanup,
  removeTempDir,
  runBounded,
  sleep,
  waitFor,
} from '../lib/util.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const MAIN = path.join(ROOT, 'packages/server/dist/main.js');
const WEB_DIST = path.join(ROOT, 'packages/web/dist');
// Ports of this bench (21200-21299): the origins are registered before either server starts.
const YYP_PORT = Number(process.env.BENCH_YYP_PORT || 21201);
const OHIF_PORT = Number(process.env.BENCH_OHIF_PORT || 21203);
const YYP = `http://${LOOPBACK}:${YYP_PORT}`;
const OHIF = `http://${LOOPBACK}:${OHIF_PORT}`;
const USER = { username: process.env.BENCH_USER || 'tech', password: 'Yyp@2026' };
const SHOTS = fs.mkdtempSync('/tmp/yyp-ohif-oidc-');
const RESULT = path.join(ROOT, 'bench/results/ohif-oidc.json');

async function startYyp() {
  const dir = makeTempDir('yyp-bench-ohif-oidc-');
  const logFile = path.join(dir, 'yyp.log');
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      HOST: LOOPBACK,
      PORT: String(YYP_PORT),
      DICOM_PORT: String(YYP_PORT + 1),
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      YYP_DEMO: 'on',
      YYP_DEMO_STUDIES: 'on',
      WEB_DIST,
      RATE_LIMIT_MULTIPLIER: '0',
      PUBLIC_BASE_URL: YYP,
      DICOMWEB_CORS_ORIGINS: OHIF,
      OIDC_PROVIDER_CLIENTS: JSON.stringify([
        {
          client_id: 'ohif',
          client_name: 'OHIF Viewer',
          redirect_uris: [`${OHIF}/callback`],
          post_logout_redirect_uris: [`${OHIF}/logout-redirect.html`],
        },
      ]),
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await Promise.race([exited.then(() => true), sleep(12_000).then(() => false)]))) child.kill('SIGKILL');
    }
    await removeTempDir(dir);
  });
  try {
    await waitFor(
      async () =>
        (await fetch(`${YYP}/yyp/api/v1/health`, { signal: AbortSignal.timeout(2000) }).catch(() => null))?.ok,
      { timeoutMs: 120_000, what: 'yyp health' },
    );
  } catch (err) {
    throw new Error(`${err.message}\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`, { cause: err });
  }
  return { stop, logFile };
}

/** The demo studies the user may see (QIDO-RS with a yyp token): what OHIF's list must show. */
async function demoStudies() {
  const login = await fetch(`${YYP}/yyp/api/v1/accounts/login-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(USER),
  });
  const { accessToken } = await login.json();
  // The demo studies are generated in the background at first start: wait until their count holds.
  let last = -1;
  let studies = [];
  await waitFor(
    async () => {
      const res = await fetch(`${YYP}/dicom-web/studies?limit=1000`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/dicom+json' },
      });
      studies = res.status === 204 ? [] : await res.json();
      const stable = studies.length > 0 && studies.length === last;
      last = studies.length;
      return stable;
    },
    { timeoutMs: 180_000, intervalMs: 3000, what: 'demo studies' },
  );
  return studies.map((s) => ({
    accession: s['00080050']?.Value?.[0] ?? '',
    uid: s['0020000D'].Value[0],
    patientId: s['00100020']?.Value?.[0] ?? '',
    modalities: s['00080061']?.Value ?? [],
    instances: s['00201208']?.Value?.[0] ?? null,
  }));
}

/** The study list's filter input under the column header `name`. */
async function filterUnder(page, name) {
  const header = await page.getByText(name, { exact: true }).first().boundingBox();
  const inputs = page.locator('input:visible');
  let best = null;
  for (let i = 0; i < (await inputs.count()); i++) {
    const box = await inputs.nth(i).boundingBox();
    if (!box || box.y < header.y) continue;
    const d = Math.abs(box.x - header.x) + Math.abs(box.y - header.y);
    if (!best || d < best.d) best = { d, input: inputs.nth(i) };
  }
  if (!best) throw new Error(`no filter under ${name}`);
  return best.input;
}

/**
 * The share of the first viewport's pixels that are not near black: its screenshot decoded by the
 * page itself (no image library in the bench). 0 while nothing is drawn.
 */
async function drawnShare(page) {
  const viewport = page.locator('.cornerstone-viewport-element, [data-viewportid]').first();
  if ((await viewport.count()) === 0) return 0;
  const png = (await viewport.screenshot()).toString('base64');
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, img.width, img.height).data;
    let bright = 0;
    for (let k = 0; k < px.length; k += 4) if (px[k] + px[k + 1] + px[k + 2] > 90) bright++;
    return bright / (px.length / 4);
  }, png);
}

const TOKENISH = /(access_token|id_token|refresh_token|[?&]token)=/i;

async function main() {
  if (!fs.existsSync(MAIN) || !fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error('build first: npm run build');
  }
  const dist = await ensureOhif();
  const yyp = await startYyp();
  const ohif = await serveOhif(dist, `${YYP}/dicom-web`, {
    direct: true,
    port: OHIF_PORT,
    oidc: {
      authority: `${YYP}/yyp/oidc`,
      client_id: 'ohif',
      redirect_uri: '/callback',
      response_type: 'code',
      scope: 'openid profile',
      post_logout_redirect_uri: '/logout-redirect.html',
      automaticSilentRenew: true,
      revokeAccessTokenOnSignout: false,
    },
  });
  // The list shows every study of the demo; the demo's generated studies (with images) are opened.
  const listedStudies = await demoStudies();
  const expected = listedStudies.filter((s) => s.instances > 0);
  console.log(
    `yyp ${YYP}: ${listedStudies.length} studies, ${expected.length} with images; OHIF ${OHIF_VERSION} at ${OHIF}`,
  );

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  onCleanup(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  // Nothing leaves loopback (OHIF asks for web fonts elsewhere): those requests are stopped here and
  // counted apart, not as failures.
  const outside = new Set();
  await context.route(
    (u) => u.hostname !== LOOPBACK && u.hostname !== 'localhost',
    (route) => {
      outside.add(new URL(route.request().url()).origin);
      return route.abort('blockedbyclient');
    },
  );
  const page = await context.newPage();
  const problems = [];
  const urls = new Set();
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // The console's note of a request stopped above (web fonts outside loopback) is not OHIF's fault.
    if (/net::ERR_BLOCKED_BY_CLIENT/.test(msg.text())) return;
    problems.push({ kind: 'console', text: msg.text().slice(0, 400), url: page.url().split('?')[0] });
  });
  page.on('pageerror', (err) => problems.push({ kind: 'pageerror', text: String(err).slice(0, 400) }));
  const frames = new Map();
  // Requests the page itself cancels (net::ERR_ABORTED: OHIF's chunks when it leaves for the sign-in,
  // the login page's when it goes on) are listed apart; any other failure is a problem.
  const aborted = [];
  page.on('requestfailed', (req) => {
    const u = new URL(req.url());
    if (u.hostname !== LOOPBACK && u.hostname !== 'localhost') return; // stopped above
    const text = req.failure()?.errorText;
    if (text === 'net::ERR_ABORTED') aborted.push(`${u.origin}${u.pathname}`);
    else problems.push({ kind: 'requestfailed', url: req.url().slice(0, 200), text });
  });
  page.on('requestfinished', (req) => {
    if (req.url().includes('/frames/')) frames.set(req.url(), true);
  });
  page.on('request', (req) => urls.add(req.url()));
  page.on('framenavigated', (frame) => urls.add(frame.url()));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push({ kind: 'http', status: res.status(), url: res.url().slice(0, 200) });
  });
  const shots = [];
  const shot = async (name) => {
    const file = path.join(SHOTS, `${name}.png`);
    await page.screenshot({ path: file });
    shots.push(file);
  };

  // 1. OHIF sends the browser to yyp; yyp's sign-in page asks for the password, then for consent.
  const t0 = Date.now();
  await page.goto(`${OHIF}/`);
  await page.waitForURL(`${YYP}/login?**`, { timeout: 60_000 });
  await shot('1-yyp-login');
  await page.getByLabel(/用户名|Username/).fill(USER.username);
  await page.getByLabel(/密码|Password/).fill(USER.password);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${YYP}/oidc/sign-in?**`, { timeout: 30_000 });
  await page.getByTestId('oidc-allow').waitFor({ timeout: 30_000 });
  await shot('2-yyp-consent');
  await page.getByTestId('oidc-allow').click();

  // 2. Back in OHIF: the study list holds every demo study.
  await page.waitForURL(`${OHIF}/**`, { timeout: 30_000 });
  const signInMs = Date.now() - t0;
  // OHIF asks QIDO-RS for 101 studies at most and shows 50 a page ("1-50 of 101"): the rows of
  // its first page are checked, then every other study is looked for with OHIF's accession filter
  // (a QIDO-RS query of its own, as a user finds an older study).
  const total = await waitFor(
    async () => {
      const m = /\d+-\d+ of (\d+)/.exec(await page.locator('body').innerText());
      return m ? Number(m[1]) : null;
    },
    { timeoutMs: 60_000, what: 'OHIF study list' },
  );
  const seen = new Set();
  const rowsText = async () => (await page.locator('tbody tr').allInnerTexts()).join('\n');
  const firstPage = await rowsText();
  for (const s of listedStudies) if (s.accession && firstPage.includes(s.accession)) seen.add(s.uid);
  await shot('3-ohif-study-list');
  const accessionFilter = await filterUnder(page, 'Accession');
  let filtered = 0;
  for (const s of listedStudies.filter((x) => !seen.has(x.uid) && x.accession)) {
    await accessionFilter.fill(s.accession);
    filtered++;
    const found = await waitFor(async () => (await rowsText()).includes(s.accession), {
      timeoutMs: 15_000,
      intervalMs: 200,
      what: s.accession,
    }).catch(() => false);
    if (found) seen.add(s.uid);
  }
  if (filtered > 0) await shot('3-ohif-study-list-filtered');
  await accessionFilter.fill('');
  const missing = listedStudies.filter((s) => !seen.has(s.uid)).map((s) => s.accession || s.uid);

  // 3. Each study in the viewer: its series thumbnails and a drawn viewport.
  const opened = [];
  for (const [i, study] of expected.entries()) {
    const before = problems.length;
    frames.clear();
    const start = Date.now();
    // A page load signs OHIF in again: through yyp's /yyp/oidc/auth and its page, which goes on by
    // itself (the consent of this session is remembered), back to the viewer.
    await page.goto(`${OHIF}/viewer?StudyInstanceUIDs=${study.uid}`);
    let thumbnails = 0;
    let drawn = 0;
    try {
      await page.waitForURL(`${OHIF}/viewer?**`, { timeout: 60_000 });
      await waitFor(
        async () => {
          thumbnails = await page
            .locator('[data-cy="study-browser-thumbnail"] img, [data-cy="study-browser-thumbnail"] canvas')
            .count();
          drawn = await drawnShare(page);
          return thumbnails > 0 && drawn > 0.01 && frames.size > 0;
        },
        { timeoutMs: 90_000, intervalMs: 1000, what: `study ${study.accession}` },
      );
    } catch {
      // recorded below as not drawn
    }
    await sleep(2000); // late requests of the study (prefetch) count too
    await shot(`4-study-${String(i + 1).padStart(2, '0')}-${study.accession}`);
    opened.push({
      accession: study.accession,
      uid: study.uid,
      modalities: study.modalities,
      instances: study.instances,
      thumbnails,
      viewportDrawnShare: Math.round(drawn * 1000) / 1000,
      frameRequests: frames.size,
      ms: Date.now() - start,
      problems: problems.slice(before),
    });
  }

  const tokenInUrl = [...urls].filter((u) => TOKENISH.test(u));
  const result = {
    date: new Date().toISOString(),
    viewer: `OHIF ${OHIF_VERSION} (npm @ohif/app dist) on its own origin, no proxy`,
    signIn: 'yyp as OpenID Connect provider: authorization code + PKCE (S256), consent on yyp /oidc/sign-in',
    dataSource: `${YYP}/dicom-web (CORS for ${OHIF}; Authorization: Bearer <yyp OIDC access token, 5 min>)`,
    demoStudies: { listed: listedStudies.length, withImages: expected.length },
    studyList: {
      ohifCount: total,
      note: 'OHIF asks for 101 studies at most; the others were found with its accession filter',
      found: seen.size,
      missing,
    },
    signInMs,
    studies: opened,
    problems,
    stoppedOutsideLoopback: [...outside],
    abortedByThePage: aborted,
    tokenInUrl,
    screenshots: shots,
    ok:
      missing.length === 0 &&
      opened.every((s) => s.thumbnails > 0 && s.viewportDrawnShare > 0.01 && s.frameRequests > 0) &&
      problems.length === 0 &&
      tokenInUrl.length === 0,
  };
  fs.mkdirSync(path.dirname(RESULT), { recursive: true });
  fs.writeFileSync(RESULT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `OHIF via yyp OIDC: ${result.ok ? 'OK' : 'NOT OK'}; list: ${seen.size} of ${listedStudies.length} found ` +
      `(${missing.length} missing), ${opened.filter((s) => s.viewportDrawnShare > 0.01).length}/${opened.length} ` +
      `studies drawn, ` +
      `${problems.length} problems, ${tokenInUrl.length} URLs with a token; screenshots in ${SHOTS}`,
  );
  await browser.close();
  await ohif.stop();
  await yyp.stop();
  return result;
}

await runBounded(async () => {
  try {
    await main();
  } finally {
    await cleanupAll();
  }
}, 900);
