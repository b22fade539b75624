#!/usr/bin/env node
// Dev loop (not the benchmark): the study-list cases against a PostgreSQL database seeded once and
// kept (BENCH_DB, default yyp_bench_studies_keep; BENCH_EXAMS exams on its first run), with the
// CPU each process spent per request: the server, PostgreSQL's backends and autocannon (this one).
// BENCH_CASES (defaultList,namePrefix,dateRangeAndModality,deepPage,reportSourceRemote,reportSourceOwn), BENCH_SECONDS (5),
// BENCH_NODE_ARGS (e.g. --cpu-prof). Drop the database to reseed: dropdb yyp_bench_studies_keep.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuByProcess, cpuByProcessSince, machineCpu } from '../lib/util.mjs';
import { cases, load, loginSenior, startServer, stopServer } from './lib.mjs';
import { seedExams } from './seed.mjs';

const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = process.env.BENCH_DB || 'yyp_bench_studies_keep';
const N = Number(process.env.BENCH_EXAMS || 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS || 5);

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const exists = (await admin.query('select 1 from pg_database where datname = $1', [dbName])).rowCount > 0;
if (!exists) await admin.query(`create database ${dbName}`);
await admin.end();
const u = new URL(adminUrl);
u.pathname = `/${dbName}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-quick-studies-'));
const env = { PORT: String(18000 + Math.floor(Math.random() * 1000)), DATA_DIR: dataDir, DATABASE_URL: u.toString() };
try {
  if (!exists) {
    try {
      await stopServer((await startServer(env)).child);
      const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
      const started = Date.now();
      await seedExams(async (text, params = []) => (await pool.query(text, params)).rows, N);
      await pool.query('vacuum analyze');
      await pool.end();
      console.log(`seeded ${N} exams in ${Math.round((Date.now() - started) / 1000)} s`);
    } catch (err) {
      // A half-seeded database would be measured as it is next time: drop it.
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`);
      await c.end();
      throw err;
    }
  }
  const { child, url } = await startServer(env);
  try {
    const login = await loginSenior(url);
    for (const [name, body] of Object.entries(cases())) {
      await load(url, login.accessToken, body, 1); // warm: plans, caches, JIT
      const before = cpuByProcess();
      const m0 = machineCpu();
      const r = await load(url, login.accessToken, body, SECONDS);
      const m1 = machineCpu();
      const { byComm, byPid } = cpuByProcessSince(before, [child.pid, process.pid]);
      const per = (ms) => (ms / r.responses).toFixed(2);
      const server = byPid[child.pid];
      const bench = byPid[process.pid];
      const postgres = byComm.filter(([c]) => c === 'postgres').reduce((a, [, ms]) => a + ms, 0);
      console.log(
        `${name}: ${r.requestsPerSecond} req/s, p50 ${r.latencyMs.p50.toFixed(1)} p95 ${r.latencyMs.p95.toFixed(1)} ms;` +
          ` cpu ms/request: machine ${per(m1.busy - m0.busy)} (idle ${per(m1.idle - m0.idle)}),` +
          ` server ${per(server.user)}+${per(server.sys)}, postgres ${per(postgres)}, autocannon ${per(bench.user + bench.sys)}`,
      );
    }
  } finally {
    await stopServer(child);
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
