#!/usr/bin/env node
// bench/auth: login and GET accounts/me throughput and latency with autocannon against a started
// server, on PGlite and on PostgreSQL. Results go to bench/results/auth-<store>.json.
// Usage: npm run build && node bench/auth.mjs [pglite|postgres ...]   (default: both)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const baseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const stores = process.argv.slice(2).length ? process.argv.slice(2) : ['pglite', 'postgres'];
const DURATION = Number(process.env.BENCH_SECONDS || 10);

async function startServer(env) {
  const child = spawn('node', ['packages/server/dist/main.js'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = `http://127.0.0.1:${env.PORT}/yyp/api/v1/`;
  for (let i = 0; i < 300; i++) {
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

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: DURATION, connections: 50, pipelining: 1, ...opts }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
  });
}

function summary(r) {
  return {
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.mean },
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    total: r.requests.total,
  };
}

async function benchStore(store) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `yyp-bench-${store}-`));
  // Login is measured from one address, many times a second: the per-address limits are off.
  const env = {
    PORT: String(18000 + Math.floor(Math.random() * 1000)),
    DATA_DIR: dataDir,
    YYP_DEMO: 'on',
    RATE_LIMIT_MULTIPLIER: '0',
  };
  let dbName;
  if (store === 'postgres') {
    dbName = `yyp_bench_${Date.now()}`;
    const c = new pg.Client({ connectionString: baseUrl });
    await c.connect();
    await c.query(`create database ${dbName}`);
    await c.end();
    const u = new URL(baseUrl);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
  }
  const { child, url } = await startServer(env);
  try {
    const body = JSON.stringify({ username: 'doctor', password: 'Yyp@2026' });
    const login = await (
      await fetch(url + 'accounts/login-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    ).json();
    const token = login.accessToken;
    // Warm up the JIT and the connection pool before measuring.
    await cannon({ url: url + 'accounts/me', duration: 2, headers: { authorization: `Bearer ${token}` } });
    const me = await cannon({ url: url + 'accounts/me', headers: { authorization: `Bearer ${token}` } });
    // Login is argon2id by design (about 20 ms of CPU each): fewer connections, it is CPU-bound.
    const loginRun = await cannon({
      url: url + 'accounts/login-in',
      method: 'POST',
      connections: 8,
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { me: summary(me), login: summary(loginRun) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName) {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`);
      await c.end();
    }
  }
}

fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
for (const store of stores) {
  const result = await benchStore(store);
  const record = {
    benchmark: 'auth',
    store,
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    durationSeconds: DURATION,
    connections: { me: 50, login: 8 },
    target: { accountsMeRequestsPerSecondOnPostgres: 5000 },
    ...result,
  };
  fs.writeFileSync(path.join(root, `bench/results/auth-${store}.json`), JSON.stringify(record, null, 2) + '\n');
  console.log(
    `${store}: accounts/me ${result.me.requestsPerSecond} req/s (p50 ${result.me.latencyMs.p50} ms, p99 ${result.me.latencyMs.p99} ms); login ${result.login.requestsPerSecond} req/s (p50 ${result.login.latencyMs.p50} ms, p99 ${result.login.latencyMs.p99} ms)`,
  );
}
