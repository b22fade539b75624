#!/usr/bin/env node
// The plans of the statistics' statements on a bench database kept by bench/statistics
// (BENCH_KEEP_DB=1 prints its name): each store function of the build (packages/server/dist) is
// called with a database whose execute() runs EXPLAIN (ANALYZE, BUFFERS) of the statement it was
// given, over the same year, group organizations and month as the bench asks.
// Usage: BENCH_DB_URL=postgres://…/yyp_bench_… node bench/statistics/explain.mjs [out.txt] [only]
// (default out: bench/results/statistics-explain-postgres.txt) [only: a regular expression of names]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import { buildRoot } from '../mwl/cfind.mjs';
import { FIRST_DAY, LAST_DAY } from './seed.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const out = process.argv[2] || path.join(root, 'bench/results/statistics-explain-postgres.txt');
const dist = (p) => import(pathToFileURL(path.join(buildRoot, 'packages/server/dist/modules/statistics', p)).href);
// BENCH_PG_OPTIONS (e.g. '-c jit=off') are the session's settings.
const pool = new pg.Pool({ connectionString: process.env.BENCH_DB_URL, max: 1, options: process.env.BENCH_PG_OPTIONS });
const dialect = new PgDialect();
const lines = [];
let current = '';

/** A Db whose statements are explained (answering no rows). */
const db = {
  async execute(q) {
    const { sql, params } = dialect.sqlToQuery(q);
    // A transaction's settings (set local work_mem) hold for the session's later statements too.
    if (/^\s*set /i.test(sql)) return pool.query(sql.replace(/set local/i, 'set'), params);
    const plan = await pool.query(`explain (analyze, buffers) ${sql}`, params);
    lines.push(`---- ${current}`, sql.replace(/\s+/g, ' ').trim(), `params: ${JSON.stringify(params)}`);
    lines.push(...plan.rows.map((r) => r['QUERY PLAN']), '');
    return { rows: [] };
  },
  transaction: (fn) => fn(db),
};

const day = (d, plus = 0) => new Date(Date.parse(`${d}T00:00:00+08:00`) + plus * 86_400_000);
const buckets = (
  await pool.query(`select id from buckets where code in ('RH-RAD', 'RH-US', 'RH-PE') order by code`)
).rows.map((r) => r.id);
const req = (kind, by, from = FIRST_DAY) => ({
  kind,
  by,
  interval: 'month',
  version: 'simple',
  from,
  to: LAST_DAY,
  start: day(from),
  end: day(LAST_DAY, 1),
  bucketIds: buckets,
});
const [desk, consul, remote, money, quality, reports, detail, turnaround, rollup] = await Promise.all(
  [
    'stat-desk.store.js',
    'stat-consul-rollup.store.js',
    'stat-remote-rollup.store.js',
    'stat-money.store.js',
    'stat-quality.store.js',
    'stat-reports.store.js',
    'stat-detail.store.js',
    'stat-turnaround.store.js',
    'stat-monthly.store.js',
  ].map(dist),
);
const year = { bucketIds: buckets, from: FIRST_DAY, to: LAST_DAY, start: day(FIRST_DAY), end: day(LAST_DAY, 1) };
const steps = { fromStep: 'registered', toStep: 'approved' };
const q = { bucketIds: buckets, from: FIRST_DAY, to: LAST_DAY, kinds: ['rw', 'ra'] };
const calls = {
  'report (rollup sums)': () => rollup.sumRolled(db, q, 'k1'),
  'report (rollup periods)': () => rollup.sumRolledPeriods(db, q, 'month'),
  'modality (the raw count, the rollup oracle)': () =>
    reports.deviceWorkloadRaw(db, { ...year, start: day('2026-10-01'), interval: 'month', by: 'modality' }),
  registrar: () => desk.registrarStats(db, req('registrar', 'registrar')),
  arriver: () => desk.arriverStats(db, req('arriver', 'arriver')),
  'remote-report (rollup rows)': () => remote.remoteRows(db, req('remote-report', 'counterpart')),
  'consul (rollup)': () => consul.consulStats(db, req('consul', 'bucket')),
  'group-payment (rollup)': () => money.groupPaymentStats(db, req('group-payment', 'bucket'), 'CNY'),
  billings: () => money.billingLines(db, year, { skip: 0, limit: 20 }),
  'billings (count and sums, rollup)': () => money.billingSums(db, year),
  quality: () => quality.gradesBy(db, year, 'level'),
  'quality (periods)': () => quality.gradesByPeriod(db, year, 'month'),
  'overview exams': () => detail.examCounts(db, year, 'month'),
  'overview reports': () => detail.approvedReportCounts(db, year, 'month'),
  'report-detail': () => detail.approvedReportPage(db, year, { skip: 0, limit: 20 }),
  turnaround: () => turnaround.turnaroundStats(db, req('turnaround', 'modality'), steps),
  'turnaround slowest': () => turnaround.slowestExams(db, req('turnaround', 'modality'), steps, 20),
  'turnaround overdue': () => turnaround.overdueExams(db, req('turnaround', 'modality'), steps, day(LAST_DAY, 1), 100),
};
// An optional third argument (a regular expression) explains only the statements it matches.
const only = process.argv[3] ? new RegExp(process.argv[3]) : undefined;
for (const [name, call] of Object.entries(calls)) {
  if (only && !only.test(name)) continue;
  current = name;
  await call();
  console.log(`explained ${name}`);
}
await pool.end();
const head = `# EXPLAIN (ANALYZE, BUFFERS) of the statistics' statements, ${new Date().toISOString()}\n# database ${new URL(process.env.BENCH_DB_URL).pathname.slice(1)}, options ${process.env.BENCH_PG_OPTIONS || 'none'}: ${FIRST_DAY} to ${LAST_DAY}, organizations RH-PE, RH-RAD, RH-US\n\n`;
fs.writeFileSync(out, head + lines.join('\n') + '\n');
