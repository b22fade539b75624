#!/usr/bin/env node
// bench/registry: the front desk's list (POST buckets/{id}/registry/query) at BENCH_SCHEDULED
// scheduled exams (default 1,000,000, all in the demo modality's organization, seeded as for
// bench/mwl: 10,000 today, the rest over the 990 days before and the 9 after) on a fresh PostgreSQL
// database. The demo registrar's typical queries, each under BENCH_CONNECTIONS desks at once
// (default 4) for BENCH_SECONDS (default 10) after an untimed BENCH_WARMUP_SECONDS (default 2):
// the landing page (created desc, 10 a page, internal orders), today's exams, the next 7 days (a
// quick range), a name, pinyin initials and an accession number typed into the search box.
// Latency percentiles come from every response's own time; each case is also run from one desk
// alone for half as long (oneDeskLatencyMs). The goal is judged on the desks at once.
// Writes bench/results/registry-postgres.json.
// Usage: npm run build && node bench/registry/index.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuCalibrationMs, machine, round, runBounded } from '../lib/util.mjs';
import { postLoad } from '../lib/post-load.mjs';
import { startYyp, yypApi, yypLogin } from '../lib/yyp.mjs';
import { buildCommit, buildRoot } from '../mwl/cfind.mjs';
import { seedScheduledExams } from '../mwl/seed.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const N = Number(process.env.BENCH_SCHEDULED || 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 4);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS || 2);
const GOAL_P95_MS = 50;

/** One query under load (bench/lib/post-load.mjs), by CONNECTIONS users unless told. */
const load = (url, token, body, seconds, connections = CONNECTIONS) => postLoad(url, token, body, seconds, connections);

async function main() {
  const { hospitalDate } = await import(path.join(buildRoot, 'packages/contracts/dist/index.js'));
  const today = hospitalDate(new Date());
  const yyp = await startYyp({ store: 'postgres', main: path.join(buildRoot, 'packages/server/dist/main.js') });
  const pool = new pg.Pool({ connectionString: yyp.dbUrl, max: 2 });
  const run = async (sql, params = []) => (await pool.query(sql, params)).rows;
  const started = Date.now();
  const seeded = await seedScheduledExams(run, { n: N, todayCount: 10_000, stations: 10, today });
  await run('checkpoint');
  const seedSeconds = Math.round((Date.now() - started) / 1000);
  console.log(`yyp: seeded ${N} scheduled exams in ${seedSeconds} s`);
  const [accession] = await run(
    `select accession_number from scheduled_exams where bucket_id = $1 and scheduled_date = $2 order by id limit 1`,
    [seeded.bucketId, today],
  );
  await pool.end();

  const { accessToken } = await yypLogin(yyp, 'registrar');
  const url = `${yyp.httpBase}/yyp/api/v1/buckets/${seeded.bucketId}/registry/query`;
  const cases = {
    landingPage: {},
    today: { from: today, to: today },
    next7Days: { from: today, to: hospitalDate(new Date(), 7) },
    name: { q: '王伟' },
    pinyinInitials: { q: 'zwm' },
    accessionNumber: { q: accession.accession_number },
  };
  const results = {};
  const loadAverage = { before: os.loadavg().map((l) => round(l, 2)) };
  const calibration = { before: cpuCalibrationMs() };
  for (const [name, body] of Object.entries(cases)) {
    const first = await yypApi(yyp, accessToken, `buckets/${seeded.bucketId}/registry/query`, body);
    // Untimed first: the server's connections prepare the statements, V8 compiles the path.
    await load(url, accessToken, body, WARMUP_SECONDS);
    const measured = await load(url, accessToken, body, SECONDS);
    // The same query from one desk alone: the statement's own time, without the others' queueing.
    const oneDesk = await load(url, accessToken, body, Math.max(2, Math.round(SECONDS / 2)), 1);
    results[name] = { count: first.count, items: first.items.length, ...measured, oneDeskLatencyMs: oneDesk.latencyMs };
    console.log(
      `${name}: count ${first.count}, ${measured.requestsPerSecond} req/s, p50 ${measured.latencyMs.p50} ms, p95 ${measured.latencyMs.p95} ms; one desk p95 ${oneDesk.latencyMs.p95} ms`,
    );
  }
  loadAverage.after = os.loadavg().map((l) => round(l, 2));
  calibration.after = cpuCalibrationMs();
  await yyp.stop();

  const record = {
    benchmark: 'registry',
    store: 'postgres',
    date: new Date().toISOString(),
    machine: { ...machine(), yyp: yyp.version, yypCommit: buildCommit(), loadAverage },
    cpuCalibrationMs: calibration,
    scheduledExams: N,
    today,
    seedSeconds,
    connections: CONNECTIONS,
    durationSeconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    cases,
    results,
    goal: { p95MsAtOneMillionOnPostgres: GOAL_P95_MS },
    goalMet: N >= 1_000_000 ? Object.values(results).every((r) => r.latencyMs.p95 <= GOAL_P95_MS) : null,
  };
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench/results/registry-postgres.json'), JSON.stringify(record, null, 2) + '\n');
}

await runBounded(main, Number(process.env.BENCH_TIMEOUT_SECONDS || 3600));
