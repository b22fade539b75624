#!/usr/bin/env node
// bench/billing (issue 24): the order list (POST orders/page-query?requestBucketId) at BENCH_ORDERS
// orders (default 1,000,000, all placed by the demo radiology, seeded by seed.mjs) on a fresh
// PostgreSQL database: the requesting desk's typical lists, each under BENCH_CONNECTIONS users at
// once (default 4) for BENCH_SECONDS (default 10) after an untimed BENCH_WARMUP_SECONDS (default 2):
// the landing page (newest first, 10 a page), the unpaid ones, those waiting for the experts, the
// last 30 days, a patient's name and an order number. Latency percentiles come from every
// response's own time; each case is also run by one user alone (oneUserLatencyMs). The goal (p95 ≤
// 50 ms) is judged on the users at once.
// Then the payment notifications: BENCH_PAID_ORDERS (default 1,000) orders are applied for, each
// gets its WeChat QR (request/{id}/pre-paid-order) and is paid on the loopback simulator with the
// notification delivered BENCH_NOTIFY_TIMES (default 5) times at once, BENCH_NOTIFY_PARALLEL orders
// (default 20) at a time; afterwards the database must hold exactly one paid payment, one ledger
// posting and one paid-audit row per order.
// Writes bench/results/billing-postgres.json.
// The demo's senior doctor (approving: orders expert reads in the radiology) makes every call.
// Usage: npm run build && node bench/billing/index.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuCalibrationMs, machine, percentile, round, runBounded } from '../lib/util.mjs';
import { postLoad } from '../lib/post-load.mjs';
import { startYyp, yypApi, yypLogin } from '../lib/yyp.mjs';
import { buildCommit } from '../mwl/cfind.mjs';
import { seedOpenExams, seedOrders } from './seed.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const N = Number(process.env.BENCH_ORDERS || 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 4);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS || 2);
const GOAL_P95_MS = 50;
const PAID_ORDERS = Number(process.env.BENCH_PAID_ORDERS || 1000);
const NOTIFY_TIMES = Number(process.env.BENCH_NOTIFY_TIMES || 5);
const NOTIFY_PARALLEL = Number(process.env.BENCH_NOTIFY_PARALLEL || 20);

/** One query under load (bench/lib/post-load.mjs), by CONNECTIONS users unless told. */
const load = (url, token, body, seconds, connections = CONNECTIONS) => postLoad(url, token, body, seconds, connections);

async function pageQueryCases(yyp, seeded, token) {
  const base = `orders/page-query?requestBucketId=${encodeURIComponent(seeded.requestBucketId)}`;
  const url = `${yyp.httpBase}/yyp/api/v1/${base}`;
  const since = new Date(Date.UTC(2026, 10, 16) - 30 * 86_400_000).toISOString();
  const cases = {
    landingPage: { filters: {}, limit: 10, skip: 0, sorts: [] },
    secondPage: { filters: {}, limit: 10, skip: 10, sorts: [{ field: 'created', direction: 'desc' }] },
    unpaid: { filters: { paymentStatus: [0] }, limit: 10, skip: 0, sorts: [] },
    waitingForExperts: { filters: { status: ['applied', 'reporting'] }, limit: 10, skip: 0, sorts: [] },
    last30Days: { filters: { from: since }, limit: 10, skip: 0, sorts: [] },
    patientName: { filters: { patientName: '王伟' }, limit: 10, skip: 0, sorts: [] },
    orderNo: { filters: { orderNo: 'R2026111500999000' }, limit: 10, skip: 0, sorts: [] },
  };
  const results = {};
  for (const [name, body] of Object.entries(cases)) {
    const first = await yypApi(yyp, token, base, body);
    await load(url, token, body, WARMUP_SECONDS);
    const measured = await load(url, token, body, SECONDS);
    const oneUser = await load(url, token, body, Math.max(2, Math.round(SECONDS / 2)), 1);
    results[name] = { count: first.count, items: first.data.length, ...measured, oneUserLatencyMs: oneUser.latencyMs };
    console.log(
      `${name}: count ${first.count}, ${measured.requestsPerSecond} req/s, p50 ${measured.latencyMs.p50} ms, p95 ${measured.latencyMs.p95} ms; one user p95 ${oneUser.latencyMs.p95} ms`,
    );
  }
  return { cases, results };
}

/** Runs `work` over `items`, `parallel` at a time. */
async function pool(items, parallel, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Applies for, shows the QR of and pays each exam's order with its notification delivered NOTIFY_TIMES times at once. */
async function notifications(yyp, run, seeded, token) {
  const examIds = await seedOpenExams(run, seeded.requestBucketId, PAID_ORDERS);
  const orderIds = [];
  const times = [];
  const started = Date.now();
  await pool(examIds, NOTIFY_PARALLEL, async (examId) => {
    const order = await yypApi(yyp, token, 'request/apply', { examId, applicantMobile: '13800000000' });
    orderIds.push(order.id);
    const qr = await yypApi(yyp, token, `request/${order.id}/pre-paid-order`);
    const scan = new URL(qr.simScanUrl);
    const t0 = performance.now();
    const paid = await fetch(`${scan.origin}/sim/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code_url: qr.codeUrl, times: NOTIFY_TIMES }),
    });
    if (!paid.ok) throw new Error(`sim/pay answered ${paid.status}: ${await paid.text()}`);
    times.push(performance.now() - t0);
  });
  const seconds = (Date.now() - started) / 1000;
  const ids = `{${orderIds.join(',')}}`;
  const [counts] = await run(
    `select
       (select count(*)::int from orders where id = any($1::text[]) and payment_status = 1) as "ordersPaid",
       (select count(*)::int from payments where order_id = any($1::text[]) and status = 'paid') as "paymentsPaid",
       (select count(*)::int from ledger_txns where kind = 'payment' and order_id = any($1::text[])) as "postings",
       (select count(*)::int from audit_logs where action = 'payment.paid' and details->>'orderId' = any($1::text[])) as "paidAudits"`,
    [ids],
  );
  const result = {
    orders: PAID_ORDERS,
    notificationsPerOrder: NOTIFY_TIMES,
    parallelOrders: NOTIFY_PARALLEL,
    seconds: round(seconds, 1),
    ordersPerSecond: round(PAID_ORDERS / seconds, 1),
    payToSettledMs: { p50: round(percentile(times, 50), 1), p95: round(percentile(times, 95), 1) },
    ...counts,
    exactlyOnce: Object.values(counts).every((n) => n === PAID_ORDERS),
  };
  console.log(`notifications: ${JSON.stringify(result)}`);
  return result;
}

async function main() {
  const yyp = await startYyp({ store: 'postgres' });
  const db = new pg.Pool({ connectionString: yyp.dbUrl, max: 2 });
  // The database is dropped at cleanup, even after a failure: its idle connections' end is no error.
  db.on('error', () => undefined);
  const run = async (sql, params = []) => (await db.query(sql, params)).rows;
  const started = Date.now();
  const seeded = await seedOrders(run, N);
  await run('checkpoint');
  const seedSeconds = Math.round((Date.now() - started) / 1000);
  console.log(`yyp: seeded ${N} orders in ${seedSeconds} s`);

  const { accessToken } = await yypLogin(yyp, 'senior');
  const loadAverage = { before: os.loadavg().map((l) => round(l, 2)) };
  const calibration = { before: cpuCalibrationMs() };
  const pageQuery = await pageQueryCases(yyp, seeded, accessToken);
  const notified = await notifications(yyp, run, seeded, accessToken);
  loadAverage.after = os.loadavg().map((l) => round(l, 2));
  calibration.after = cpuCalibrationMs();
  await db.end();
  await yyp.stop();

  const record = {
    benchmark: 'billing',
    store: 'postgres',
    date: new Date().toISOString(),
    machine: { ...machine(), yyp: yyp.version, yypCommit: buildCommit(), loadAverage },
    cpuCalibrationMs: calibration,
    orders: N,
    seedSeconds,
    connections: CONNECTIONS,
    durationSeconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    pageQuery,
    notifications: notified,
    goal: { pageQueryP95MsAtOneMillionOnPostgres: GOAL_P95_MS, notificationsSettleExactlyOnce: true },
    goalMet:
      notified.exactlyOnce &&
      (N >= 1_000_000 ? Object.values(pageQuery.results).every((r) => r.latencyMs.p95 <= GOAL_P95_MS) : null),
  };
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench/results/billing-postgres.json'), JSON.stringify(record, null, 2) + '\n');
}

await runBounded(main, Number(process.env.BENCH_TIMEOUT_SECONDS || 3600));
