#!/usr/bin/env node
// bench/calling (issue 23): waiting-room screens following a queue over the live socket, with two
// yyp instances on one PostgreSQL database. BENCH_SCREENS (default 100) screens connect with a
// screen token, half to instance A and half to B, and subscribe to the organization's queue topic;
// technicians press call-next BENCH_CALLS_PER_SECOND times a second (default 5) for BENCH_SECONDS
// (default 60), alternately on A and B. For every call, every screen must receive its queue.called
// event exactly once: the latency is from the call-next answer reaching the technician to the
// event reaching the screen (negative when the event came first). Goal: p95 ≤ 200 ms, no missed
// and no duplicated events. Writes bench/results/calling.json.
// Usage: npm run build && node bench/calling/index.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { cpuCalibrationMs, machine, percentile, round, runBounded, sleep } from '../lib/util.mjs';
import { startYyp, yypApi, yypLogin } from '../lib/yyp.mjs';
import { buildCommit, buildRoot } from '../mwl/cfind.mjs';
import { seedScheduledExams } from '../mwl/seed.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const SCREENS = Number(process.env.BENCH_SCREENS || 100);
const PER_SECOND = Number(process.env.BENCH_CALLS_PER_SECOND || 5);
const SECONDS = Number(process.env.BENCH_SECONDS || 60);
const GOAL_P95_MS = 200;
const CALLS = PER_SECOND * SECONDS;

/** One screen: a live socket authenticated by the screen token, following `topic`. */
function openScreen(yyp, token, topic, onCalled) {
  const url = `${yyp.httpBase.replace(/^http/, 'ws')}/yyp/api/v1/live`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const timer = setTimeout(() => reject(new Error('screen did not subscribe in 10 s')), 10_000);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token, scheme: 'Screen' })));
    ws.on('error', reject);
    ws.on('message', (data) => {
      const at = performance.now();
      const msg = JSON.parse(String(data));
      if (msg.type === 'ready') ws.send(JSON.stringify({ type: 'subscribe', topic }));
      else if (msg.type === 'subscribed') {
        clearTimeout(timer);
        resolve(ws);
      } else if (msg.type === 'error') reject(new Error(`screen refused: ${msg.code}`));
      else if (msg.type === 'event' && msg.event?.type === 'queue.called') onCalled(msg.event.queueExamId, at);
    });
  });
}

async function main() {
  const { hospitalDate, queueTopic } = await import(path.join(buildRoot, 'packages/contracts/dist/index.js'));
  const today = hospitalDate(new Date());
  const a = await startYyp({ store: 'postgres', main: path.join(buildRoot, 'packages/server/dist/main.js') });
  const b = await startYyp({
    store: 'postgres',
    main: path.join(buildRoot, 'packages/server/dist/main.js'),
    restart: { dataDir: a.dataDir, dbUrl: a.dbUrl },
    env: { YYP_DEMO: 'off' },
  });
  const pool = new pg.Pool({ connectionString: a.dbUrl, max: 2 });
  const run = async (sql, params = []) => (await pool.query(sql, params)).rows;
  // Today's CT exams of the demo organization, none arrived yet.
  const seeded = await seedScheduledExams(run, { n: CALLS + 50, todayCount: CALLS + 50, stations: 1, today });
  await run(`update scheduled_exams set status = 'Scheduled', arrived_at = null where bucket_id = $1`, [
    seeded.bucketId,
  ]);
  const ids = (
    await run(`select id from scheduled_exams where bucket_id = $1 order by id limit $2`, [seeded.bucketId, CALLS + 20])
  ).map((r) => r.id);
  await pool.end();

  const { accessToken: registrar } = await yypLogin(a, 'registrar');
  const { accessToken: tech } = await yypLogin(b, 'tech');
  const bucketId = seeded.bucketId;
  const queueType = await yypApi(a, registrar, 'queue-types/add', {
    bucketId,
    displayName: 'CT 1',
    modality: 'CT',
    roomName: 'CT 1',
  });
  // The registrar marks them arrived (15 at a time, the most one call takes): each checks into the CT queue.
  for (let i = 0; i < ids.length; i += 15) {
    await yypApi(a, registrar, 'registry/arrive', { ids: ids.slice(i, i + 15) });
  }
  const waiting = await yypApi(a, registrar, 'queue-exams/query', { bucketId, statuses: ['waiting'], limit: 1 });
  console.log(`yyp: ${waiting.count} patients waiting in CT 1 (instances A and B on one PostgreSQL database)`);
  const { token: screenToken } = await yypApi(a, registrar, `buckets/${bucketId}/screen-tokens`, { label: 'bench' });

  /** receipt times per queue exam id, one array per screen */
  const received = Array.from({ length: SCREENS }, () => new Map());
  const topic = queueTopic(bucketId);
  const screens = [];
  for (let s = 0; s < SCREENS; s++) {
    const heard = received[s];
    const onCalled = (id, at) => heard.set(id, [...(heard.get(id) ?? []), at]);
    screens.push(await openScreen(s % 2 === 0 ? a : b, screenToken, topic, onCalled));
  }
  console.log(`yyp: ${SCREENS} screens connected (${SCREENS / 2} on each instance)`);

  const answered = new Map();
  let calledOk = 0;
  const errors = [];
  const loadBefore = os.loadavg().map((l) => round(l, 2));
  const started = performance.now();
  const pending = [];
  for (let i = 0; i < CALLS; i++) {
    const due = started + (i * 1000) / PER_SECOND;
    await sleep(Math.max(0, due - performance.now()));
    const [target, token] = i % 2 === 0 ? [a, registrar] : [b, tech];
    pending.push(
      yypApi(target, token, 'queue-exams/call-next', { queueTypeId: queueType.id })
        .then((res) => {
          if (!res.queueExam) return errors.push('nobody waiting');
          calledOk++;
          answered.set(res.queueExam.id, performance.now());
        })
        .catch((err) => errors.push(err.message)),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  // The last events' time to arrive.
  await sleep(2000);
  for (const ws of screens) ws.close();

  const latencies = [];
  let missed = 0;
  let duplicated = 0;
  for (const heard of received) {
    for (const [id, answerAt] of answered) {
      const times = heard.get(id) ?? [];
      if (times.length === 0) missed++;
      if (times.length > 1) duplicated += times.length - 1;
      if (times.length) latencies.push(times[0] - answerAt);
    }
  }
  // Two call-next answers naming one patient (the map keeps one of them).
  const calledTwice = answered.size !== calledOk;
  const summary = {
    calls: CALLS,
    answered: answered.size,
    callErrors: errors.length,
    firstErrors: errors.slice(0, 5),
    samePatientCalledTwice: calledTwice,
    screens: SCREENS,
    events: latencies.length,
    missed,
    duplicated,
    latencyMs: {
      p50: round(percentile(latencies, 50), 2),
      p95: round(percentile(latencies, 95), 2),
      p99: round(percentile(latencies, 99), 2),
      max: round(Math.max(...latencies), 2),
    },
    callsPerSecond: round(CALLS / elapsed, 2),
  };
  console.log(JSON.stringify(summary, null, 2));
  const record = {
    benchmark: 'calling',
    store: 'postgres, two instances',
    date: new Date().toISOString(),
    machine: {
      ...machine(),
      yypCommit: buildCommit(),
      loadAverage: { before: loadBefore, after: os.loadavg().map((l) => round(l, 2)) },
    },
    cpuCalibrationMs: cpuCalibrationMs(),
    latency: 'ms from the call-next answer reaching the caller to the queue.called event reaching each screen',
    ...summary,
    goal: { p95Ms: GOAL_P95_MS, missed: 0, duplicated: 0 },
    goalMet:
      summary.latencyMs.p95 <= GOAL_P95_MS && missed === 0 && duplicated === 0 && errors.length === 0 && !calledTwice,
  };
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench/results/calling.json'), JSON.stringify(record, null, 2) + '\n');
  await b.kill();
  await a.stop();
}

runBounded(main, 900);
