#!/usr/bin/env node
// bench/reports: concurrent report editing. BENCH_DOCTORS (50) doctors, each on their own exam in
// one process: log in, open the report (GET detail), take its lock, then every 2 s (starts
// staggered over the first interval) append a numbered sentence to the findings and POST save with
// the version held, taking the answer's version; a sync (heartbeat) every 30 s. For BENCH_SECONDS
// (60). Every save's latency is timed around fetch and reading the answer (node's fetch keeps the
// connection alive). Afterwards each report is read back: its version must be the version after
// the lock plus the acknowledged saves, its findings the last text saved, no save may have met a
// 409, and report_traces must hold one row per save plus the lock step (counted by SQL).
//
// Preparation, through the API as the demo group admin (groupadmin): 50 accounts benchdoc01…
// created in the group 仁和医院, added to its organization 放射科 (RH-RAD) and given the role 报告医生;
// each replaces the admin-set password at first login (accounts/update-password). 50 one-slice
// 64×64 CT studies are sent by STOW-RS as the demo technician and listed as senior.
//
// Usage: npm run build && node bench/reports/index.mjs [postgres] [pglite]   (default: both)
// Writes bench/results/reports-<store>.json. Everything on 127.0.0.1; server, scratch database
// (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres, creates and drops it)
// and temp dirs are removed afterwards, also on failure or timeout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadGenerator, stow } from '../lib/dicom-tools.mjs';
import { startYyp } from '../lib/yyp.mjs';
import { machine, makeTempDir, percentile, removeTempDir, round, runBounded, sleep, waitFor } from '../lib/util.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const MAIN = path.join(ROOT, 'packages/server/dist/main.js');
const RESULTS = path.join(ROOT, 'bench/results');
const ARGS = process.argv.slice(2);
const STORES = ARGS.length ? ARGS : ['postgres', 'pglite'];
const DOCTORS = Number(process.env.BENCH_DOCTORS || 50);
const SECONDS = Number(process.env.BENCH_SECONDS || 60);
const INTERVAL_MS = 2000;
const SYNC_MS = 30_000;
const REQUEST_TIMEOUT_MS = 30_000;
const GOAL_P95_MS = 30;
/** Preparation and verification take about a minute per store; the load SECONDS. */
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S || STORES.length * (300 + 2 * SECONDS));

const DEMO_PASSWORD = 'Yyp@2026';
const GROUP_ID = 'demo-renhe';
const ORG_CODE = 'RH-RAD';
const ROLE_NAME = '报告医生';
/** The password the admin sets, and the one each doctor replaces it with at first login. */
const FIRST_PASSWORD = 'Bench@2026first';
const PASSWORD = 'Bench@2026doc';

const log = (msg) => console.error(`[reports] ${msg}`);

/* ---------- server on a scratch database ---------- */

/**
 * dist/main.js on free loopback ports with the demo tenant (no demo studies), on a scratch
 * PostgreSQL database or on PGlite in a temp dir. `kill()` stops the process only (PGlite's files
 * stay for counting); `stop()` also drops the database and removes the dir.
 */
async function startServer(store) {
  const yyp = await startYyp({ store, env: { LOG_LEVEL: 'fatal' } });
  return {
    api: `${yyp.httpBase}/yyp/api/v1/`,
    dicomWebBase: yyp.dicomWebBase,
    dbUrl: yyp.dbUrl,
    pgliteDir: path.join(yyp.dataDir, 'pgdata'),
    kill: yyp.kill,
    stop: yyp.stop,
  };
}

/* ---------- API calls ---------- */

async function call(api, method, route, { token, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(api + route, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, ok: res.ok, body: json };
}

async function must(api, method, route, opts) {
  const r = await call(api, method, route, opts);
  if (!r.ok) {
    throw new Error(`${method} ${route} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  }
  return r.body;
}

async function login(api, username, password) {
  return (await must(api, 'POST', 'accounts/login-in', { body: { username, password } })).accessToken;
}

/** Runs `fn` over `items` with at most `k` in flight; answers in order. */
async function pool(items, k, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(k, items.length) }, worker));
  return out;
}

const pad = (n) => String(n).padStart(2, '0');

/* ---------- preparation ---------- */

/**
 * The doctors, through the API as the group admin: accounts in the group, members of 放射科,
 * holders of 报告医生, then each replaces the admin-set password (mustChangePassword).
 */
async function prepareDoctors(api) {
  const token = await login(api, 'groupadmin', DEMO_PASSWORD);
  const orgs = await must(api, 'GET', `groups/${GROUP_ID}/organizations`, { token });
  const org = orgs.find((o) => o.code === ORG_CODE);
  if (!org) throw new Error(`organization ${ORG_CODE} not found in ${GROUP_ID}`);
  const usernames = Array.from({ length: DOCTORS }, (_, i) => `benchdoc${pad(i + 1)}`);
  const created = await pool(usernames, 5, (username, i) =>
    must(api, 'POST', `groups/${GROUP_ID}/members/create-account`, {
      token,
      body: { username, name: `压测医生${pad(i + 1)}`, password: FIRST_PASSWORD, accessLevel: 0 },
    }),
  );
  const ids = created.map((m) => m.accountId);
  await must(api, 'POST', `buckets/${org.id}/members`, { token, body: { accountIds: ids, accessLevel: 'member' } });
  const roles = await must(api, 'GET', `buckets/${org.id}/roles`, { token });
  const role = roles.find((r) => r.name === ROLE_NAME);
  if (!role?.actions.includes('report_upsert')) throw new Error(`role ${ROLE_NAME} with report_upsert not found`);
  await must(api, 'PUT', `roles/${role.id}/mappings`, { token, body: { accountIds: [...role.memberIds, ...ids] } });
  const passwords = await pool(usernames, 5, async (username) => {
    const first = await call(api, 'POST', 'accounts/login-in', { body: { username, password: FIRST_PASSWORD } });
    if (first.ok) return FIRST_PASSWORD; // not asked for a new password
    if (first.body?.code !== 'PasswordExpired') {
      throw new Error(`first login of ${username} answered ${first.status}: ${JSON.stringify(first.body)}`);
    }
    await must(api, 'POST', 'accounts/update-password', {
      body: { username, oldPwd: FIRST_PASSWORD, newPwd: PASSWORD },
    });
    return PASSWORD;
  });
  return {
    bucketId: org.id,
    doctors: usernames.map((username, i) => ({ username, id: ids[i], password: passwords[i] })),
    passwordChanges: passwords.filter((p) => p === PASSWORD).length,
  };
}

/** One-slice 64×64 CT studies by STOW-RS into 放射科 (the technician's upload organization), listed as senior. */
async function prepareExams(server, bucketId) {
  const { generateStudy, writeStudy } = await loadGenerator();
  const dir = makeTempDir('yyp-bench-reports-dcm-');
  const files = [];
  const prefix = `RB${Date.now().toString(36).toUpperCase()}`;
  for (let i = 0; i < DOCTORS; i++) {
    const study = generateStudy({
      modality: 'CT',
      rows: 64,
      columns: 64,
      instancesPerSeries: 1,
      patientId: `${prefix}P${pad(i + 1)}`,
      patientName: `BENCH^DOCTOR${pad(i + 1)}`,
      accessionNumber: `${prefix}${pad(i + 1)}`,
      studyDate: new Date().toISOString().slice(0, 10).replaceAll('-', ''),
    });
    files.push(...(await writeStudy(dir, study)));
  }
  const tech = await login(server.api, 'tech', DEMO_PASSWORD);
  const stored = await stow({ dicomWebBase: server.dicomWebBase, token: tech }, files, { batchSize: 10 });
  await removeTempDir(dir);
  if (stored.stored !== DOCTORS) throw new Error(`STOW-RS stored ${stored.stored} of ${DOCTORS} instances`);
  const senior = await login(server.api, 'senior', DEMO_PASSWORD);
  const query = {
    filters: [
      { field: 'accessionNumber', operator: 'prefix', values: [prefix] },
      { field: 'bucketId', operator: 'eq', values: [bucketId] },
    ],
    sorts: [{ field: 'accessionNumber', direction: 'asc' }],
    skip: 0,
    limit: 200,
  };
  const page = await waitFor(
    async () => {
      const p = await must(server.api, 'POST', 'exams/page-query', { token: senior, body: query });
      return p.exams.length === DOCTORS ? p : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250, what: `${DOCTORS} exams in the study list` },
  );
  return page.exams.map((e) => e.id);
}

/* ---------- the load ---------- */

const sentence = (d, n) => `第${n}次修改：${d.username} 所见补充，肝实质密度均匀，未见明确占位（${n}）。`;

async function openReport(api, d) {
  d.token = await login(api, d.username, d.password);
  const detail = await must(api, 'GET', `reports/${d.examId}/detail`, { token: d.token });
  if (!detail.transitions.includes('save')) throw new Error(`${d.username} may not save: ${detail.transitions}`);
  const locked = await must(api, 'POST', `reports/${d.examId}/lock`, { token: d.token });
  if (!locked.lock?.mine) throw new Error(`${d.username} did not get the lock of ${d.examId}`);
  d.version = locked.version;
  d.versionAfterLock = locked.version;
  d.content = locked.content;
  d.lastSaved = locked.content.findings;
}

/** One doctor's loop: a save every INTERVAL_MS from its staggered start, a sync every SYNC_MS. */
async function doctorLoop(api, d, index, stats, startAt, endAt) {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${d.token}` };
  let next = startAt + (index * INTERVAL_MS) / DOCTORS;
  let lastSync = startAt;
  let n = 0;
  while (next < endAt) {
    await sleep(Math.max(0, next - performance.now()));
    n++;
    stats.attempts++;
    const findings = `${d.content.findings}${sentence(d, n)}`;
    const content = { ...d.content, findings, conclusion: `压测结论 ${n}` };
    const body = JSON.stringify({ version: d.version, content });
    const t = performance.now();
    let status;
    let text = '';
    try {
      const res = await fetch(`${api}reports/${d.examId}/save`, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await res.text();
      status = res.status;
    } catch (err) {
      status = `error: ${err.message}`;
    }
    const ms = performance.now() - t;
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    if (typeof status === 'number') stats.latencies.push(ms);
    if (status === 200) {
      const report = JSON.parse(text);
      if (report.version !== d.version + 1 || report.content.findings !== findings) stats.badAnswers++;
      d.version = report.version;
      d.content = report.content;
      d.lastSaved = findings;
      d.saves++;
    } else if (status === 409) {
      stats.conflicts++;
      let code = 'unknown';
      try {
        code = JSON.parse(text).code;
      } catch {
        /* not JSON */
      }
      stats.conflictCodes[code] = (stats.conflictCodes[code] ?? 0) + 1;
      // Take the server's text and version, as the editor would after showing the conflict.
      const fresh = await call(api, 'GET', `reports/${d.examId}/detail`, { token: d.token });
      if (fresh.ok) {
        d.version = fresh.body.version;
        d.content = fresh.body.content;
      }
    } else {
      stats.errors++;
      if (stats.errorSamples.length < 5) stats.errorSamples.push(`${status} ${text.slice(0, 200)}`);
    }
    if (performance.now() - lastSync >= SYNC_MS) {
      lastSync = performance.now();
      const s = await call(api, 'POST', `reports/${d.examId}/sync`, { token: d.token }).catch((err) => ({
        ok: false,
        status: err.message,
      }));
      if (s.ok && s.body.lock?.mine && s.body.version === d.version) stats.syncs++;
      else stats.syncFailures++;
    }
    next += INTERVAL_MS;
    if (next < performance.now()) {
      stats.lateTicks++;
      next = performance.now();
    }
  }
}

/* ---------- verification ---------- */

/** Rows of report_traces per report: all, and save steps. */
async function countTraces(server, store) {
  const sqlText = `select report_id, count(*)::int as n, (count(*) filter (where action = 'save'))::int as saves
    from report_traces group by 1`;
  if (store === 'postgres') {
    const c = new pg.Client({ connectionString: server.dbUrl });
    await c.connect();
    try {
      return (await c.query(sqlText)).rows;
    } finally {
      await c.end();
    }
  }
  // PGlite has one owner: the server is stopped first, then its files are opened here.
  await server.kill();
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(server.pgliteDir);
  await db.waitReady;
  try {
    return (await db.query(sqlText)).rows;
  } finally {
    await db.close();
  }
}

async function verify(server, store, doctors) {
  const finals = await pool(doctors, 10, (d) =>
    must(server.api, 'GET', `reports/${d.examId}/detail`, { token: d.token }),
  );
  const traces = new Map((await countTraces(server, store)).map((r) => [r.report_id, r]));
  const out = {
    reports: doctors.length,
    versionMismatches: 0,
    contentMismatches: 0,
    traceMismatches: 0,
    lostWrites: 0,
  };
  const samples = [];
  doctors.forEach((d, i) => {
    const report = finals[i];
    const expected = d.versionAfterLock + d.saves;
    const t = traces.get(d.examId) ?? { n: 0, saves: 0 };
    const lost = Math.max(0, expected - report.version, d.saves - t.saves);
    const contentOk = report.content.findings === d.lastSaved;
    if (report.version !== expected) out.versionMismatches++;
    if (!contentOk) out.contentMismatches++;
    if (t.n !== d.saves + 1 || t.saves !== d.saves) out.traceMismatches++;
    out.lostWrites += lost || (contentOk ? 0 : 1);
    if ((report.version !== expected || !contentOk || t.n !== d.saves + 1) && samples.length < 5) {
      samples.push({ exam: d.examId, saves: d.saves, expected, version: report.version, traces: t.n, contentOk });
    }
  });
  if (samples.length) out.samples = samples;
  return out;
}

/* ---------- one store ---------- */

async function benchStore(store) {
  log(`${store}: starting the server`);
  const server = await startServer(store);
  try {
    const { bucketId, doctors, passwordChanges } = await prepareDoctors(server.api);
    log(`${store}: ${doctors.length} doctors prepared (${passwordChanges} first-login password changes)`);
    const examIds = await prepareExams(server, bucketId);
    doctors.forEach((d, i) => Object.assign(d, { examId: examIds[i], saves: 0 }));
    log(`${store}: ${examIds.length} exams stored and listed`);
    await pool(doctors, 10, (d) => openReport(server.api, d));
    log(`${store}: reports open and locked; ${SECONDS} s of saves every ${INTERVAL_MS / 1000} s per doctor`);

    const stats = {
      attempts: 0,
      latencies: [],
      statuses: {},
      conflicts: 0,
      conflictCodes: {},
      errors: 0,
      errorSamples: [],
      badAnswers: 0,
      syncs: 0,
      syncFailures: 0,
      lateTicks: 0,
    };
    const loadBefore = os.loadavg().map((v) => round(v, 2));
    const startAt = performance.now();
    const endAt = startAt + SECONDS * 1000;
    await Promise.all(doctors.map((d, i) => doctorLoop(server.api, d, i, stats, startAt, endAt)));
    const wall = (performance.now() - startAt) / 1000;
    const loadAfter = os.loadavg().map((v) => round(v, 2));
    const check = await verify(server, store, doctors);
    const saves = doctors.reduce((s, d) => s + d.saves, 0);
    const l = stats.latencies;
    const latencyMs = {
      p50: round(percentile(l, 50), 2),
      p95: round(percentile(l, 95), 2),
      p99: round(percentile(l, 99), 2),
      max: round(Math.max(...l), 2),
      mean: round(l.reduce((a, b) => a + b, 0) / l.length, 2),
    };
    const clean =
      stats.conflicts === 0 &&
      stats.errors === 0 &&
      stats.badAnswers === 0 &&
      check.lostWrites === 0 &&
      check.versionMismatches === 0 &&
      check.contentMismatches === 0 &&
      check.traceMismatches === 0;
    return {
      benchmark: 'reports',
      store,
      date: new Date().toISOString(),
      machine: machine(),
      // 1/5/15-minute load averages around the load: other work on the machine shows here.
      loadAverage: { before: loadBefore, after: loadAfter },
      doctors: doctors.length,
      seconds: SECONDS,
      intervalMs: INTERVAL_MS,
      syncMs: SYNC_MS,
      accounts:
        'API as groupadmin: create-account in 仁和医院, bucket member of 放射科, role 报告医生, password replaced at first login',
      saves,
      saveAttempts: stats.attempts,
      savesPerSecond: round(saves / wall, 1),
      latencyMs,
      statuses: stats.statuses,
      conflicts: stats.conflicts,
      conflictCodes: stats.conflictCodes,
      errors: stats.errors,
      errorSamples: stats.errorSamples,
      badAnswers: stats.badAnswers,
      syncs: stats.syncs,
      syncFailures: stats.syncFailures,
      lateTicks: stats.lateTicks,
      lostWrites: check.lostWrites,
      verification: {
        rule: 'final version = version after lock + acknowledged saves (the lock step does not bump the version); findings = last text saved; report_traces rows = saves + 1 (the lock step)',
        ...check,
      },
      /** no conflicts, errors or lost writes, and every count checked */
      clean,
      goal: { p95Ms: GOAL_P95_MS, store: 'postgres', alsoRequires: 'zero conflicts, errors and lost writes' },
      // The goal is set on PostgreSQL; on PGlite the same test is reported for comparison.
      goalMet: latencyMs.p95 <= GOAL_P95_MS && clean,
      ...(store === 'postgres'
        ? {}
        : { goalMetNote: 'the goal is stated for PostgreSQL; PGlite shown for comparison' }),
    };
  } finally {
    await server.stop();
  }
}

async function main() {
  for (const s of STORES) {
    if (s !== 'postgres' && s !== 'pglite') throw new Error(`unknown store ${s}: use postgres and/or pglite`);
  }
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
  fs.mkdirSync(RESULTS, { recursive: true });
  for (const store of STORES) {
    const r = await benchStore(store);
    fs.writeFileSync(path.join(RESULTS, `reports-${store}.json`), JSON.stringify(r, null, 2) + '\n');
    const { p50, p95, p99, max } = r.latencyMs;
    console.log(
      `${store}: ${r.doctors} doctors, ${r.saves} saves in ${r.seconds} s (${r.savesPerSecond}/s); save p50 ${p50} ms, ` +
        `p95 ${p95} ms, p99 ${p99} ms, max ${max} ms; conflicts ${r.conflicts}, errors ${r.errors}, ` +
        `lost writes ${r.lostWrites}, trace mismatches ${r.verification.traceMismatches}; ` +
        `goal p95 ≤ ${GOAL_P95_MS} ms ${r.goalMet ? 'met' : 'NOT met'}`,
    );
  }
}

await runBounded(main, TIMEOUT_S);
