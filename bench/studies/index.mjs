#!/usr/bin/env node
// bench/studies: the study list (POST exams/page-query, count included) at scale. Seeds
// BENCH_EXAMS exams (default 1,000,000) across 50 organizations into PostgreSQL and a tenth of that
// into PGlite, then drives four queries with autocannon at 20 connections: the default list, a
// patient-name prefix (pinyin initials), a week's study dates + CT, and a deep page (skip 10,000).
// Latency percentiles come from every response's own time. EXPLAIN (ANALYZE, BUFFERS) of the
// statement of each case (page, count, colour rules) goes to bench/results/studies-explain-<store>.txt.
// Usage: npm run build && node bench/studies/index.mjs [postgres|pglite ...]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { seedExams } from './seed.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const stores = process.argv.slice(2).length ? process.argv.slice(2) : ['postgres', 'pglite'];
const N_PG = Number(process.env.BENCH_EXAMS || 1_000_000);
const N_PGLITE = Number(process.env.BENCH_EXAMS_PGLITE || Math.round(N_PG / 10));
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 20;
const GOAL_P95_MS = 50;

async function startServer(env) {
  const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  const child = spawn('node', [...nodeArgs, 'packages/server/dist/main.js'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'fatal', YYP_DEMO: 'on', YYP_DEMO_STUDIES: 'off', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${env.PORT}/yyp/api/v1/`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url + 'health')).ok) return { child, url };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('server did not start');
}

async function stopServer(child) {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One query under load: every response's time is kept, so p95 is exact. */
function load(url, token, body) {
  const times = [];
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: url + 'exams/page-query',
        method: 'POST',
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
        setupClient: (client) => client.on('response', (_status, _bytes, ms) => times.push(ms)),
      },
      (err, res) => {
        if (err) return reject(err);
        times.sort((a, b) => a - b);
        resolve({
          requestsPerSecond: Math.round(res.requests.average),
          latencyMs: {
            p50: percentile(times, 50),
            p95: percentile(times, 95),
            p99: percentile(times, 99),
            mean: Math.round((times.reduce((a, b) => a + b, 0) / times.length) * 10) / 10,
          },
          responses: times.length,
          non2xx: res.non2xx,
          errors: res.errors,
          timeouts: res.timeouts,
        });
      },
    );
  });
}

/** The four cases of the issue; the week is the newest week of seeded study dates. */
function cases() {
  const only = process.env.BENCH_CASES ? process.env.BENCH_CASES.split(',') : null;
  const all = {
    defaultList: { filters: [], skip: 0, limit: 20 },
    namePrefix: { filters: [{ field: 'patientName', operator: 'prefix', values: ['zw'] }], skip: 0, limit: 20 },
    dateRangeAndModality: {
      filters: [
        { field: 'studyDate', operator: 'range', values: ['20261110', '20261116'] },
        { field: 'modality', operator: 'eq', values: ['CT'] },
      ],
      skip: 0,
      limit: 20,
    },
    deepPage: { filters: [], skip: 10_000, limit: 20 },
  };
  return only ? Object.fromEntries(Object.entries(all).filter(([k]) => only.includes(k))) : all;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statement the server runs for each case: the page, its count
 * (from the per-organization counters when only organizations filter, else over the exams) and the
 * colour rules, in one statement.
 */
async function explainAll(db, run, bucketIds) {
  const store = await import(path.join(root, 'packages/server/dist/modules/exams/exams.list.store.js'));
  const scope = { bucketIds, deleted: false };
  let out = '';
  for (const [name, body] of Object.entries(cases())) {
    const { sql, params } = store.pageStatement(db, scope, body.filters, [], body.skip, body.limit).toSQL();
    const rows = await run(`explain (analyze, buffers) ${sql}`, params);
    out += `=== ${name}: page, count and colour rules\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n\n`;
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
    console.log(`${store}: seeded ${n} exams in ${seedSeconds} s`);
    if (store === 'pglite') await close();

    const { child, url } = await startServer(env);
    const results = {};
    // The machine's 1/5/15-minute load averages before and after the measured runs: everything
    // (autocannon, node, the database) shares its cores, so other work skews the figures.
    const loadAverage = { before: os.loadavg().map((l) => Math.round(l * 100) / 100) };
    try {
      const login = await (
        await fetch(url + 'accounts/login-in', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'senior', password: 'Yyp@2026' }),
        })
      ).json();
      for (const [name, body] of Object.entries(cases())) {
        const first = await (
          await fetch(url + 'exams/page-query', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${login.accessToken}` },
            body: JSON.stringify(body),
          })
        ).json();
        const measured = await load(url, login.accessToken, body);
        results[name] = { count: first.count, ...measured };
        console.log(
          `${store} ${name}: count ${first.count}, ${measured.requestsPerSecond} req/s, p50 ${measured.latencyMs.p50} ms, p95 ${measured.latencyMs.p95} ms, p99 ${measured.latencyMs.p99} ms`,
        );
      }
      loadAverage.after = os.loadavg().map((l) => Math.round(l * 100) / 100);
    } finally {
      await stopServer(child);
    }
    const explained = store === 'pglite' ? await openStore(store, env, dataDir) : { db, run, close };
    const explain = await explainAll(explained.db, explained.run, bucketIds);
    await explained.close();
    fs.writeFileSync(path.join(root, `bench/results/studies-explain-${store}.txt`), explain);
    return { exams: n, seedSeconds, loadAverage, results };
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

/** A drizzle handle (for the server's own query builders) and a raw runner on the bench's store. */
async function openStore(store, env, dataDir) {
  if (store === 'postgres') {
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
    return {
      db: drizzle(pool),
      run: async (sql, params = []) => (await pool.query(sql, params)).rows,
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const client = new PGlite(path.join(dataDir, 'pgdata'));
  await client.waitReady;
  return {
    db: drizzle(client),
    run: async (sql, params = []) => (await client.query(sql, params)).rows,
    close: () => client.close(),
  };
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
    connections: CONNECTIONS,
    goal: { p95MsAtOneMillionOnPostgres: GOAL_P95_MS, cases: ['defaultList', 'namePrefix', 'dateRangeAndModality'] },
    goalMet:
      store === 'postgres' && result.exams >= 1_000_000
        ? ['defaultList', 'namePrefix', 'dateRangeAndModality'].every((k) => p95s[k] <= GOAL_P95_MS)
        : null,
    ...result,
  };
  fs.writeFileSync(path.join(root, `bench/results/studies-${store}.json`), JSON.stringify(record, null, 2) + '\n');
}
