#!/usr/bin/env node
// bench/statistics (issue 26): every statistic over a year's range at BENCH_EXAMS exams (default
// 1,000,000; goal p95 ≤ 200 ms, and ≤ 500 ms at 10,000,000) on a fresh PostgreSQL database with the
// demo seeded, the exams and everything around them written by seed.mjs (a year of the demo
// hospital's three organizations). The demo group admin (groupadmin) asks each for the whole group
// (groupId demo-renhe) by month, from FIRST_DAY to LAST_DAY (device workload: the last month, its
// limit): the tables of statistics/{report, report (detailed version), modality, study, arriver,
// remote-report, note-taker, registrar, report-positive, group-payment, consul, quality}, the
// overview (total, user, bucket), the report detail's and the billings' first page, turnaround and
// its slowest exams. Each is asked once alone (firstCallMs), then under BENCH_CONNECTIONS users at
// once (default 4) for BENCH_SECONDS (default 10) after an untimed BENCH_WARMUP_SECONDS (default 2),
// then by one user alone for half as long (oneUserLatencyMs). The goal is judged on the users at
// once. The seed leaves the rollups (stat_daily) to the server's background recount, whose time to
// finish after the seed is recorded (backgroundRecount), then the first read is timed on its own
// before anything else (coldFirstRead). Seed seconds (per part) and pg_database_size are recorded.
// Writes bench/results/statistics-postgres.json (statistics-postgres-10m.json from 10,000,000 exams).
// Usage: npm run build && BENCH_EXAMS=1000000 node bench/statistics/index.mjs
// A large seed can be kept and measured later, by another build: BENCH_SEED_ONLY=1 stops after the
// seed and the background recount and keeps the database (its name is printed; the seed's record
// is kept in it, table bench_seed_record); BENCH_REUSE_DB_URL=postgres://…/<that name> then starts
// the build on it (its migrations run), waits for the recount and measures. Drop the database after.
// BENCH_ONLY=<regex> measures only the cases it matches (e.g. remoteReport).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuCalibrationMs, machine, round, runBounded } from '../lib/util.mjs';
import { getLoad, postLoad } from '../lib/post-load.mjs';
import { startYyp, yypLogin } from '../lib/yyp.mjs';
import { buildCommit, buildRoot } from '../mwl/cfind.mjs';

import { FIRST_DAY, LAST_DAY, seedStatistics } from './seed.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const N = Number(process.env.BENCH_EXAMS || 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 4);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS || 2);
const GOAL_P95_MS = N >= 10_000_000 ? 500 : 200;
const SEED_ONLY = Boolean(process.env.BENCH_SEED_ONLY);
const REUSE_URL = process.env.BENCH_REUSE_DB_URL;
/** BENCH_ONLY=<regex>: only the cases whose names match (their record is written to a file of its own). */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
if (SEED_ONLY) process.env.BENCH_KEEP_DB = '1';
const MONTH_FROM = '2026-10-01';

/** The calls measured: name → method, path and body (POST) or query (GET). */
function cases(groupId) {
  const year = { from: FIRST_DAY, to: LAST_DAY, interval: 'month', groupId };
  const post = (p, body = year) => ({ method: 'POST', path: p, body });
  const get = (p, q = year) => ({ method: 'GET', path: `${p}?${new URLSearchParams(q)}` });
  return {
    report: post('statistics/report'),
    reportDetailedVersion: post('statistics/report', { ...year, version: 'detailed' }),
    modality: post('statistics/modality', { ...year, from: MONTH_FROM }),
    study: post('statistics/study'),
    arriver: post('statistics/arriver'),
    remoteReport: post('statistics/remote-report'),
    noteTaker: post('statistics/note-taker'),
    registrar: post('statistics/registrar'),
    reportPositive: post('statistics/report-positive'),
    groupPayment: post('statistics/group-payment'),
    consul: post('statistics/consul'),
    quality: post('statistics/quality'),
    overviewTotal: post('statistics/overview/total'),
    overviewUser: post('statistics/overview/user'),
    overviewBucket: post('statistics/overview/bucket'),
    reportDetailFirstPage: post('statistics/report-detail', { ...year, skip: 0, limit: 20 }),
    billingsFirstPage: post('statistics/billings', { ...year, skip: 0, limit: 20 }),
    turnaround: get('statistics/turnaround'),
    turnaroundSlowest: get('statistics/turnaround/slowest'),
  };
}

/** One call, timed; answers its JSON and milliseconds (throws on an error status). */
async function callOnce(base, token, c) {
  const t0 = performance.now();
  const res = await fetch(`${base}/${c.path}`, {
    method: c.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: c.body === undefined ? undefined : JSON.stringify(c.body),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`${c.method} ${c.path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { json: JSON.parse(text), ms: round(ms, 1) };
}

/** What an answer holds, in brief (to see the statistic counted something). */
function brief(json) {
  if (Array.isArray(json.rows) && json.totals) return { rows: json.rows.length, totals: json.totals };
  if (Array.isArray(json.items)) return { items: json.items.length, total: json.total };
  if (Array.isArray(json.slowest)) return { slowest: json.slowest.length, overdue: json.overdue.length };
  return {};
}

function load(base, token, c, seconds, connections = CONNECTIONS) {
  const url = `${base}/${c.path}`;
  return c.method === 'GET'
    ? getLoad(url, token, seconds, connections)
    : postLoad(url, token, c.body, seconds, connections);
}

/**
 * Waits (at most two minutes) until no statement of the bench database is running: a case whose
 * calls outlived autocannon's 10 s timeout leaves them running in the server, and the next case
 * would be measured against them. Answers the seconds waited.
 */
async function drained(run) {
  const t0 = Date.now();
  while (Date.now() - t0 < 120_000) {
    const [{ n }] = await run(`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`);
    if (n === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return round((Date.now() - t0) / 1000, 1);
}

/** Seeds a new database (or takes the seed's record from a kept one): what the record says of it. */
async function seedOrReuse(run) {
  if (REUSE_URL) {
    const [{ j }] = await run('select j from bench_seed_record');
    if (j.exams !== N) throw new Error(`the kept database holds ${j.exams} exams: run with BENCH_EXAMS=${j.exams}`);
    console.log(`yyp: reusing ${new URL(REUSE_URL).pathname.slice(1)}, seeded ${j.exams} exams on ${j.date}`);
    return { ...j, reused: true };
  }
  const started = Date.now();
  const seeded = await seedStatistics(run, N);
  await run('checkpoint');
  const seedSeconds = Math.round((Date.now() - started) / 1000);
  const dbBytesAfterSeed = Number((await run('select pg_database_size(current_database()) as n'))[0].n);
  const [counts] = await run(`select
    (select count(*)::int from exams) as exams, (select count(*)::int from reports) as reports,
    (select count(*)::int from registrations) as registrations, (select count(*)::int from scheduled_exams) as "scheduledExams",
    (select count(*)::int from queue_exams) as "queueExams", (select count(*)::int from orders) as orders,
    (select count(*)::int from ledger_entries) as "ledgerEntries", (select count(*)::int from consultations) as consultations,
    (select count(*)::int from report_quality) as grades, (select count(*)::int from exam_steps) as "examSteps",
    (select count(*)::int from stat_dirty) as "dirtyDays"`);
  console.log(
    `yyp: seeded ${N} exams in ${seedSeconds} s, ${Math.round(dbBytesAfterSeed / 2 ** 20)} MB: ${JSON.stringify(counts)}`,
  );
  const record = {
    exams: N,
    date: new Date().toISOString(),
    yypCommit: buildCommit(),
    groupId: seeded.groupId,
    seedSeconds,
    seedPartsSeconds: seeded.parts,
    rows: counts,
    dbBytesAfterSeed,
  };
  await run('create table bench_seed_record (j jsonb not null)');
  await run('insert into bench_seed_record (j) values ($1)', [JSON.stringify(record)]);
  return record;
}

async function main() {
  const mainJs = path.join(buildRoot, 'packages/server/dist/main.js');
  // The server migrates the new database and seeds the demo; then it stops while the bench's seed
  // writes (its background recount would count days still being written, on tables whose indexes
  // are dropped meanwhile) and starts again on the seeded database.
  const first = await startYyp({
    store: 'postgres',
    main: mainJs,
    ...(REUSE_URL && {
      restart: {
        dataDir: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-bench-reuse-')), 'data'),
        dbUrl: REUSE_URL,
      },
    }),
  });
  const db = new pg.Pool({ connectionString: first.dbUrl, max: 2 });
  // The database is dropped at cleanup, even after a failure: its idle connections' end is no error.
  db.on('error', () => undefined);
  const run = async (sql, params = []) => (await db.query(sql, params)).rows;
  const size = async () => Number((await run('select pg_database_size(current_database()) as n'))[0].n);
  if (!REUSE_URL) await first.kill();
  const seeded = await seedOrReuse(run);
  const yyp = REUSE_URL
    ? first
    : await startYyp({ store: 'postgres', main: mainJs, restart: { dataDir: first.dataDir, dbUrl: first.dbUrl } });
  const stopAll = async () => {
    await yyp.stop();
    if (yyp !== first) await first.stop();
  };
  const { seedSeconds, dbBytesAfterSeed, rows: counts } = seeded;
  const [{ n: dirtyNow }] = await run('select count(*)::int as n from stat_dirty');

  const { accessToken: token } = await yypLogin(yyp, 'groupadmin');
  const base = `${yyp.httpBase}/yyp/api/v1`;
  const all = cases(seeded.groupId);
  // The server recounts the marked (organization, day) pairs in the background (every 10 s, a
  // month of one organization per step): the time until none is left, counted from the seed's end.
  const background = { marksAfterSeed: counts.dirtyDays, marksAtStart: dirtyNow, seconds: null };
  const waitFrom = Date.now();
  const waitLimitMs = 1_800_000 * Math.max(1, Math.ceil(N / 4_000_000));
  while (Date.now() - waitFrom < waitLimitMs) {
    const [{ n }] = await run('select count(*)::int as n from stat_dirty');
    if (n === 0) {
      background.seconds = Math.round((Date.now() - waitFrom) / 1000);
      break;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log(
    `background recount: ${background.seconds ?? `not done in ${waitLimitMs / 60_000} min`} s after the start`,
  );
  if (SEED_ONLY) {
    await run('update bench_seed_record set j = j || $1', [JSON.stringify({ backgroundRecount: background })]);
    console.log(`seeded and recounted; the database is kept: BENCH_REUSE_DB_URL=${yyp.dbUrl}`);
    await db.end();
    await stopAll();
    return;
  }
  // The first read then finds nothing (or what the background left) to recount.
  const cold = await callOnce(base, token, all.report);
  const warm = await callOnce(base, token, all.report);
  const [{ n: rollupRows }] = await run(`select count(*)::int as n from stat_daily`);
  // The recount wrote stat_daily after the seed's analyse: without fresh statistics its sums are
  // planned for one row (a sort spilling to disk; bench/results/statistics-explain-postgres.txt).
  // Autovacuum would analyse it soon after on a working system; the bench does it at once.
  await run('vacuum (analyze) stat_daily');
  const coldFirstRead = { call: 'statistics/report', ms: cold.ms, nextCallMs: warm.ms, rollupRows };
  console.log(`cold first read: ${cold.ms} ms (next ${warm.ms} ms), ${rollupRows} rollup rows`);

  const loadAverage = { before: os.loadavg().map((l) => round(l, 2)) };
  const calibration = { before: cpuCalibrationMs() };
  const results = {};
  for (const [name, c] of Object.entries(all)) {
    if (ONLY && !ONLY.test(name)) continue;
    const drainedSeconds = await drained(run);
    const first = await callOnce(base, token, c);
    await load(base, token, c, WARMUP_SECONDS);
    const measured = await load(base, token, c, SECONDS);
    const oneUser = await load(base, token, c, Math.max(2, Math.round(SECONDS / 2)), 1);
    const pass = measured.latencyMs.p95 <= GOAL_P95_MS && measured.non2xx === 0 && measured.errors === 0;
    results[name] = {
      call: `${c.method} ${c.path.split('?')[0]}`,
      drainedSecondsBefore: drainedSeconds,
      firstCallMs: first.ms,
      answer: brief(first.json),
      ...measured,
      oneUserLatencyMs: oneUser.latencyMs,
      goalP95Ms: GOAL_P95_MS,
      pass,
    };
    console.log(
      `${name}: ${measured.requestsPerSecond} req/s, p50 ${measured.latencyMs.p50} ms, p95 ${measured.latencyMs.p95} ms; one user p95 ${oneUser.latencyMs.p95} ms; first ${first.ms} ms ${pass ? 'PASS' : 'FAIL'} ${JSON.stringify(brief(first.json)).slice(0, 160)}`,
    );
  }
  loadAverage.after = os.loadavg().map((l) => round(l, 2));
  calibration.after = cpuCalibrationMs();
  const dbBytes = await size();
  await db.end();
  await stopAll();

  const record = {
    benchmark: 'statistics',
    store: 'postgres',
    date: new Date().toISOString(),
    machine: { ...machine(), yyp: yyp.version, yypCommit: buildCommit(), loadAverage },
    cpuCalibrationMs: calibration,
    exams: N,
    range: { from: FIRST_DAY, to: LAST_DAY, interval: 'month', groupId: seeded.groupId, modalityFrom: MONTH_FROM },
    caller: 'groupadmin',
    seed: { date: seeded.date, yypCommit: seeded.yypCommit, reused: Boolean(seeded.reused) },
    seedSeconds,
    seedPartsSeconds: seeded.seedPartsSeconds,
    rows: counts,
    dbBytesAfterSeed,
    dbBytes,
    backgroundRecount: seeded.backgroundRecount
      ? { afterSeed: seeded.backgroundRecount, atThisStart: background }
      : background,
    coldFirstRead,
    connections: CONNECTIONS,
    durationSeconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    results,
    goal: { p95MsAtOneMillion: 200, p95MsAtTenMillion: 500 },
    only: ONLY ? String(ONLY) : undefined,
    goalMet: N >= 1_000_000 ? Object.values(results).every((r) => r.pass) : null,
  };
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const only = ONLY ? `-only-${Object.keys(results).join('-')}` : '';
  const file = `statistics-postgres${N >= 10_000_000 ? '-10m' : ''}${only}.json`;
  fs.writeFileSync(path.join(root, 'bench/results', file), JSON.stringify(record, null, 2) + '\n');
}

await runBounded(main, Number(process.env.BENCH_TIMEOUT_SECONDS || (N >= 10_000_000 ? 6 * 3600 : 7200)));
