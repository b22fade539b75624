#!/usr/bin/env node
// bench/studies: the study list (POST exams/page-query, count included) at scale. Seeds
// BENCH_EXAMS exams (default 1,000,000) across 50 organizations into PostgreSQL and a tenth of that
// into PGlite, then drives six queries with autocannon at 20 connections: the default list, a
// patient-name prefix (pinyin initials), a week's study dates + CT, a deep page (skip 10,000), and
// the landing page filtered to remote reports and to own reports (spec 000 §6), each after an
// untimed warm-up (BENCH_WARMUP_SECONDS, default 2).
// Latency percentiles come from every response's own time. EXPLAIN (ANALYZE, BUFFERS) of the
// statement of each case (page, count, colour rules) goes to bench/results/studies-explain-<store>.txt.
// Usage: npm run build && node bench/studies/index.mjs [postgres|pglite ...]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { CONNECTIONS, cases, load, loginSenior, openStore, root, startServer, stopServer } from './lib.mjs';
import { cpuCalibrationMs } from '../lib/util.mjs';
import { seedExams } from './seed.mjs';

const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const stores = process.argv.slice(2).length ? process.argv.slice(2) : ['postgres', 'pglite'];
const N_PG = Number(process.env.BENCH_EXAMS || 1_000_000);
const N_PGLITE = Number(process.env.BENCH_EXAMS_PGLITE || Math.round(N_PG / 10));
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS || 2);
const GOAL_P95_MS = 50;
/** the cases the 50 ms goal holds for (the report-source landing lists since issue 24) */
const GOAL_CASES = ['defaultList', 'namePrefix', 'dateRangeAndModality', 'reportSourceRemote', 'reportSourceOwn'];

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements the server runs for each case: the landing list's
 * one statement (page, count from the per-organization counters, colour rules), a name head search's
 * or a date range's one statement (page, count, colour rules); for the others, the page's ids, its
 * count (unless the ids carry it) and the page's rows with the colour rules.
 */
async function explainAll(db, run, bucketIds) {
  const dist = path.join(root, 'packages/server/dist/modules/exams');
  const page = await import(path.join(dist, 'exams.list.page.store.js'));
  const scope = { bucketIds, deleted: false };
  const explain = async (title, query, bind = (p) => p) => {
    const { sql, params } = query.toSQL();
    const rows = await run(`explain (analyze, buffers) ${sql}`, params.map(bind));
    return `=== ${title}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n\n`;
  };
  let out = '';
  for (const [name, body] of Object.entries(cases())) {
    const { filters, skip, limit } = body;
    if (page.isLandingList(scope, filters)) {
      out += await explain(
        `${name}: page, count and colour rules`,
        page.landingStatement(db, scope, [], skip, limit, filters),
      );
      continue;
    }
    const request = { scope, filters, sorts: [], skip, limit };
    const withCount = page.pageWithCount(db, request);
    if (withCount?.rows) {
      out += await explain(`${name}: page, count and colour rules`, withCount.rows);
      continue;
    }
    let ids = withCount?.ids;
    if (!ids) {
      const counting = page.countStatement(db, scope, filters);
      out += await explain(`${name}: count`, counting);
      const { sql: countText, params: countParams } = counting.toSQL();
      const n = Number((await run(countText, countParams))[0].n);
      ids = page.countedPageIds(db, request, n).query;
    }
    out += await explain(`${name}: the page's ids${withCount ? ' and count' : ''}`, ids);
    const { sql, params } = ids.toSQL();
    const found = (await run(sql, params)).map((r) => r.id);
    const literal = (list) => `{${list.map((v) => `"${v}"`).join(',')}}`;
    out += await explain(`${name}: the page's rows and colour rules`, page.pageRowsQuery(db), (p) =>
      p?.name === 'ids' ? literal(found) : p?.name === 'buckets' ? literal(bucketIds) : p,
    );
  }
  return out;
}

async function benchStore(store) {
  const n = store === 'postgres' ? N_PG : N_PGLITE;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `yyp-bench-studies-${store}-`));
  const env = { PORT: String(18000 + Math.floor(Math.random() * 1000)), DATA_DIR: dataDir };
  let dbName;
  if (store === 'postgres') {
    dbName = `yyp_bench_studies_${Date.now()}`;
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`create database ${dbName}`);
    await c.end();
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
  }
  try {
    // First start: migrations and the demo accounts, groups and organizations.
    await stopServer((await startServer(env)).child);
    const { db, run, close } = await openStore(store, env, dataDir);
    const started = Date.now();
    const { bucketIds } = await seedExams(run, n);
    const seedSeconds = Math.round((Date.now() - started) / 1000);
    // The bulk load's dirty pages are written out now, not by a checkpoint during the measurement.
    if (store === 'postgres') await run('checkpoint');
    console.log(`${store}: seeded ${n} exams in ${seedSeconds} s`);
    if (store === 'pglite') await close();

    const { child, url } = await startServer(env);
    const results = {};
    // The machine's 1/5/15-minute load averages before and after the measured runs: everything
    // (autocannon, node, the database) shares its cores, so other work skews the figures.
    const loadAverage = { before: os.loadavg().map((l) => Math.round(l * 100) / 100) };
    const calibration = { before: cpuCalibrationMs() };
    try {
      const login = await loginSenior(url);
      for (const [name, body] of Object.entries(cases())) {
        const first = await (
          await fetch(url + 'exams/page-query', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${login.accessToken}` },
            body: JSON.stringify(body),
          })
        ).json();
        // Untimed first: each of the server's connections prepares the case's statements and
        // PostgreSQL settles their plans, V8 compiles the path; then the steady state is measured.
        await load(url, login.accessToken, body, WARMUP_SECONDS);
        const measured = await load(url, login.accessToken, body, SECONDS);
        results[name] = { count: first.count, ...measured };
        console.log(
          `${store} ${name}: count ${first.count}, ${measured.requestsPerSecond} req/s, p50 ${measured.latencyMs.p50} ms, p95 ${measured.latencyMs.p95} ms, p99 ${measured.latencyMs.p99} ms`,
        );
      }
      loadAverage.after = os.loadavg().map((l) => Math.round(l * 100) / 100);
      calibration.after = cpuCalibrationMs();
    } finally {
      await stopServer(child);
    }
    const explained = store === 'pglite' ? await openStore(store, env, dataDir) : { db, run, close };
    const explain = await explainAll(explained.db, explained.run, bucketIds);
    await explained.close();
    fs.writeFileSync(path.join(root, `bench/results/studies-explain-${store}.txt`), explain);
    return { exams: n, seedSeconds, loadAverage, cpuCalibrationMs: calibration, results };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName) {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`);
      await c.end();
    }
  }
}

fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
for (const store of stores) {
  const result = await benchStore(store);
  const p95s = Object.fromEntries(Object.entries(result.results).map(([k, v]) => [k, v.latencyMs.p95]));
  const record = {
    benchmark: 'studies',
    store,
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    durationSeconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    connections: CONNECTIONS,
    goal: { p95MsAtOneMillionOnPostgres: GOAL_P95_MS, cases: GOAL_CASES },
    goalMet: store === 'postgres' && result.exams >= 1_000_000 ? GOAL_CASES.every((k) => p95s[k] <= GOAL_P95_MS) : null,
    ...result,
  };
  fs.writeFileSync(path.join(root, `bench/results/studies-${store}.json`), JSON.stringify(record, null, 2) + '\n');
}
