#!/usr/bin/env node
// bench/mwl: Modality Worklist C-FIND latency, yyp beside Orthanc's ModalityWorklists plugin
// (issue 22). yyp runs on its own fresh PostgreSQL database seeded with BENCH_SCHEDULED scheduled
// exams (default 1,000,000) over 1,000 days, BENCH_MWL_TODAY (default 10,000) of them today in the
// demo modality's organization, shared among BENCH_MWL_STATIONS stations (default 10: the demo CT
// DEMO_MODALITY and nine more; 1 puts every one of today's exams on the demo CT). Orthanc (Debian's
// 1.10, installed when missing) gets the same day's exams as .wl files in its worklist folder. The
// same SCU (the project's DIMSE test SCU) sends each case BENCH_MWL_QUERIES times (default 100,
// after 5 untimed) to each, one association per query as a modality does, one at a time; latency
// is from the C-FIND-RQ to the final response. Writes bench/results/mwl.json.
// Usage: npm run build && node bench/mwl/index.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureOrthancInstalled, startOrthanc } from '../lib/orthanc.mjs';
import { cpuCalibrationMs, makeTempDir, machine, round, runBounded } from '../lib/util.mjs';
import { startYyp } from '../lib/yyp.mjs';
import { buildCommit, buildRoot, loadDicom, timeFinds, worklistFile, worklistIdentifier } from './cfind.mjs';
import { DEMO_AE, seedScheduledExams, todaysWorklist } from './seed.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const N = Number(process.env.BENCH_SCHEDULED || 1_000_000);
const TODAY_COUNT = Number(process.env.BENCH_MWL_TODAY || 10_000);
const STATIONS = Number(process.env.BENCH_MWL_STATIONS || 10);
const QUERIES = Number(process.env.BENCH_MWL_QUERIES || 100);
const WARMUP = 5;
const GOAL_P95_MS = 50;
const WORKLIST_PLUGIN = '/usr/share/orthanc/plugins/libModalityWorklists.so';

const loadAverage = () => os.loadavg().map((l) => round(l, 2));

async function main() {
  ensureOrthancInstalled();
  if (!fs.existsSync(WORKLIST_PLUGIN)) throw new Error(`${WORKLIST_PLUGIN} missing (Debian's orthanc ships it)`);
  const { hospitalDate } = await import(path.join(buildRoot, 'packages/contracts/dist/index.js'));
  const d = await loadDicom();
  const today = hospitalDate(new Date());
  const da = today.replace(/-/g, '');

  const yyp = await startYyp({ store: 'postgres', main: path.join(buildRoot, 'packages/server/dist/main.js') });
  const pool = new pg.Pool({ connectionString: yyp.dbUrl, max: 2 });
  const run = async (sql, params = []) => (await pool.query(sql, params)).rows;
  const started = Date.now();
  const seeded = await seedScheduledExams(run, { n: N, todayCount: TODAY_COUNT, stations: STATIONS, today });
  await run('checkpoint');
  const seedSeconds = Math.round((Date.now() - started) / 1000);
  console.log(`yyp: seeded ${N} scheduled exams (${TODAY_COUNT} today, ${STATIONS} stations) in ${seedSeconds} s`);

  // The same day's exams as Orthanc's worklist folder.
  const folder = path.join(makeTempDir('yyp-bench-mwl-'), 'worklists');
  fs.mkdirSync(folder);
  const rows = await todaysWorklist(run, seeded.bucketId, today);
  await pool.end();
  for (const row of rows) fs.writeFileSync(path.join(folder, `${row.accession_number}.wl`), worklistFile(d, row));
  console.log(`orthanc: ${rows.length} .wl files in ${folder}`);
  const orthanc = await startOrthanc({
    callingAet: DEMO_AE,
    config: { Plugins: [WORKLIST_PLUGIN], Worklists: { Enable: true, Database: folder } },
  });

  const cases = {
    todayCt: { aeTitle: DEMO_AE, date: da, modality: 'CT' },
    todayCtPatientNameWildcard: { aeTitle: DEMO_AE, date: da, modality: 'CT', patientName: '王*' },
  };
  const targets = { yyp: { ...yyp, callingAet: DEMO_AE }, orthanc };
  const results = { yyp: {}, orthanc: {} };
  const load = { before: loadAverage() };
  const calibration = { before: cpuCalibrationMs() };
  for (const [name, keys] of Object.entries(cases)) {
    const identifier = worklistIdentifier(d, keys);
    for (const [who, target] of Object.entries(targets)) {
      results[who][name] = await timeFinds(d, target, identifier, { count: QUERIES, warmup: WARMUP });
      const r = results[who][name];
      console.log(`${who} ${name}: ${r.answers.join('/')} answers, p50 ${r.findMs.p50} ms, p95 ${r.findMs.p95} ms`);
    }
  }
  load.after = loadAverage();
  calibration.after = cpuCalibrationMs();
  await orthanc.stop();
  await yyp.stop();

  const ratios = Object.fromEntries(
    Object.keys(cases).map((k) => [k, round(results.yyp[k].findMs.p95 / results.orthanc[k].findMs.p95, 3)]),
  );
  const sameAnswers = Object.keys(cases).every(
    (k) => results.yyp[k].answers.join() === results.orthanc[k].answers.join(),
  );
  const record = {
    benchmark: 'mwl',
    date: new Date().toISOString(),
    machine: { ...machine(), orthanc: orthanc.version, yyp: yyp.version, yypCommit: buildCommit(), loadAverage: load },
    cpuCalibrationMs: calibration,
    scheduledExams: N,
    today: { date: today, exams: TODAY_COUNT, stations: STATIONS, worklistFiles: rows.length },
    seedSeconds,
    queriesPerCase: QUERIES,
    warmupPerCase: WARMUP,
    cases,
    latency: 'ms from the C-FIND-RQ to the final C-FIND-RSP; withAssociationMs from the A-ASSOCIATE-RQ',
    results,
    p95RatioYypToOrthanc: ratios,
    sameAnswerCounts: sameAnswers,
    goal: { p95Ms: GOAL_P95_MS, p95AtMostOrthanc: true },
    goalMet: Object.keys(cases).every(
      (k) => results.yyp[k].findMs.p95 <= GOAL_P95_MS && results.yyp[k].findMs.p95 <= results.orthanc[k].findMs.p95,
    ),
  };
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench/results/mwl.json'), JSON.stringify(record, null, 2) + '\n');
  console.log(JSON.stringify({ p95RatioYypToOrthanc: ratios, sameAnswerCounts: sameAnswers, goalMet: record.goalMet }));
}

await runBounded(main, Number(process.env.BENCH_TIMEOUT_SECONDS || 3600));
