#!/usr/bin/env node
// bench/ingest: the ingest benchmark, yyp against tuned Orthanc in one run on the same files.
//
//   npm run build && node bench/ingest/index.mjs
//
// For Orthanc 1.10 (Debian, DICOMweb plugin, TCP_NODELAY on both DICOM sides), yyp on PostgreSQL
// and yyp on PGlite, each path into an empty archive: storescu with 1 and 4 associations and
// STOW-RS of N 512×512 CT instances (instances/s); study-level QIDO-RS p50/p95 on 10,000 small
// instances (PatientID exact, PatientName wildcard, 30-day StudyDate range); the write+fsync
// baseline of this disk. Prints a table and writes bench/results/ingest.json (figures, ratios,
// goals met or not). Everything runs on 127.0.0.1; servers, databases and temp dirs are removed
// afterwards, also on failure or timeout.
// Each timed ingest follows BENCH_WARMUP instances of another study sent the same way, untimed.
// Env: BENCH_N (1000), BENCH_REPEAT (1; medians when >1), BENCH_WARMUP (200), BENCH_QIDO_STUDIES (1000, of 10
//      instances), BENCH_QIDO_REQUESTS (100 per query), BENCH_TIMEOUT_S (1800),
//      BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres, to create/drop databases)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { fsyncBaseline, generateCtFiles, generateQidoFiles } from '../lib/dicom-tools.mjs';
import { deferTempDirRemoval, machine, medianRun, round, runBounded } from '../lib/util.mjs';
import { startOrthancArchive } from './orthanc-only.mjs';
import { INGEST_PATHS, ingestPath, qidoScenario } from './scenarios.mjs';
import { startYypArchive } from './yyp.mjs';

const N = Number(process.env.BENCH_N || 1000);
const REPEAT = Number(process.env.BENCH_REPEAT || 1);
const WARMUP = Number(process.env.BENCH_WARMUP || 200);
const QIDO_STUDIES = Number(process.env.BENCH_QIDO_STUDIES || 1000);
const QIDO_REQUESTS = Number(process.env.BENCH_QIDO_REQUESTS || 100);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S || 1800);
const RESULTS = new URL('../results/ingest.json', import.meta.url);

const versions = {};
const ARCHIVES = {
  orthanc: {
    label: 'Orthanc',
    start: async () => {
      const a = await startOrthancArchive();
      versions.orthanc = a.target.version;
      return a;
    },
  },
  yypPostgres: { label: 'yyp PostgreSQL', start: () => startYypArchive({ store: 'postgres' }) },
  yypPglite: { label: 'yyp PGlite', start: () => startYypArchive({ store: 'pglite' }) },
};
const YYP = ['yypPostgres', 'yypPglite'];
const PATH_LABELS = { storescu1: 'storescu ×1', storescu4: 'storescu ×4', stow: 'STOW-RS' };
const QUERIES = { patientIdExact: 'byPatientId', patientNameWildcard: 'byNameWildcard', studyDateRange: 'byDateRange' };

const log = (msg) => console.error(`[ingest] ${msg}`);

/** Runs one measurement; an error is recorded (with its text) instead of ending the run. */
async function attempt(what, fn) {
  try {
    const result = await fn();
    for (const w of result.warnings ?? (result.warning ? [result.warning] : [])) {
      log(`${what}: WARNING ${w}`);
    }
    return result;
  } catch (err) {
    log(`${what}: FAILED ${err.message}`);
    return { error: err.message };
  }
}

/** The median of the runs that worked (with every run's figure), or the first error. */
function medianOrError(results) {
  const ok = results.filter((r) => !r.error);
  if (ok.length === 0) return results[0];
  const warnings = ok.flatMap((r) => r.warnings ?? (r.warning ? [r.warning] : []));
  return { ...medianRun(ok), ...(warnings.length ? { warnings } : {}), failedRuns: results.length - ok.length };
}

const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? round(a / b, 2) : null);

function summarize(runs, fsync) {
  const rate = (a, p) => runs[a][p]?.perSecond;
  const q = (a, query, pct) => runs[a].qido?.[QUERIES[query]]?.[`${pct}Ms`];
  const instancesPerSecond = {};
  const qidoMs = {};
  for (const a of Object.keys(ARCHIVES)) {
    instancesPerSecond[a] = Object.fromEntries(Object.keys(INGEST_PATHS).map((p) => [p, rate(a, p) ?? null]));
    qidoMs[a] = Object.fromEntries(
      Object.keys(QUERIES).map((k) => [
        k,
        // meanMatches: studies per answer, so a fast empty answer cannot pass for a fast search.
        {
          p50: q(a, k, 'p50') ?? null,
          p95: q(a, k, 'p95') ?? null,
          meanMatches: runs[a].qido?.[QUERIES[k]]?.meanMatches ?? null,
        },
      ]),
    );
  }
  const ratios = {};
  const goals = {};
  for (const y of YYP) {
    const vsOrthanc = Object.fromEntries(
      Object.keys(INGEST_PATHS).map((p) => [p, ratio(rate(y, p), rate('orthanc', p))]),
    );
    const qidoP95 = Object.fromEntries(
      Object.keys(QUERIES).map((k) => [k, ratio(q(y, k, 'p95'), q('orthanc', k, 'p95'))]),
    );
    const qidoP50 = Object.fromEntries(
      Object.keys(QUERIES).map((k) => [k, ratio(q(y, k, 'p50'), q('orthanc', k, 'p50'))]),
    );
    // Median of the repetitions' own ratios (×4 rate / the baseline measured just before it).
    const paired = (runs[y].storescu4PerFsyncRuns ?? []).filter((v) => v !== null).sort((a, b) => a - b);
    const storescu4VsFsync = paired.length ? paired[Math.floor(paired.length / 2)] : null;
    ratios[y] = {
      instancesPerSecondVsOrthanc: vsOrthanc,
      qidoP50VsOrthanc: qidoP50,
      qidoP95VsOrthanc: qidoP95,
      storescu4VsFsync,
      storescu4VsFsyncRuns: runs[y].storescu4PerFsyncRuns ?? [],
      storescu4MedianVsFsyncMedian: ratio(rate(y, 'storescu4'), fsync.perSecond),
    };
    // A figure that could not be measured counts as not met.
    const all = (o, ok) => Object.values(o).every((v) => v !== null && ok(v));
    goals[y] = {
      atLeastOrthancOnEveryPath: {
        target: 'yyp/Orthanc ≥ 1 on storescu ×1, ×4, STOW-RS',
        ratios: vsOrthanc,
        met: all(vsOrthanc, (v) => v >= 1),
      },
      stowAtLeastTwiceOrthanc: {
        target: 'STOW-RS yyp/Orthanc ≥ 2',
        ratio: vsOrthanc.stow,
        met: vsOrthanc.stow !== null && vsOrthanc.stow >= 2,
      },
      fourAssociationsAt70PercentOfFsync: {
        target: 'storescu ×4 / write+fsync ≥ 0.7',
        ratio: storescu4VsFsync,
        met: storescu4VsFsync !== null && storescu4VsFsync >= 0.7,
      },
      qidoP95AtMostOrthanc: {
        target: 'QIDO p95 yyp/Orthanc ≤ 1 for each query',
        ratios: qidoP95,
        met: all(qidoP95, (v) => v <= 1),
      },
    };
  }
  return { instancesPerSecond, qidoMs, ratios, goals };
}

function printTable(summary, fsync) {
  const { instancesPerSecond: ips, qidoMs, ratios } = summary;
  const fmt = (v) => (v === null || v === undefined ? 'ERR' : String(v));
  const rows = [['', ...Object.values(ARCHIVES).map((a) => a.label), 'PG/Orthanc', 'PGlite/Orthanc']];
  for (const [p, label] of Object.entries(PATH_LABELS)) {
    rows.push([
      `${label} (inst/s)`,
      ...Object.keys(ARCHIVES).map((a) => fmt(ips[a][p])),
      ...YYP.map((y) => fmt(ratios[y].instancesPerSecondVsOrthanc[p])),
    ]);
  }
  for (const k of Object.keys(QUERIES)) {
    for (const pct of ['p50', 'p95']) {
      const r = pct === 'p95' ? 'qidoP95VsOrthanc' : 'qidoP50VsOrthanc';
      rows.push([
        `QIDO ${k} ${pct} (ms)`,
        ...Object.keys(ARCHIVES).map((a) => fmt(qidoMs[a][k][pct])),
        ...YYP.map((y) => fmt(ratios[y][r][k])),
      ]);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) {
    console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
  }
  for (const y of YYP) {
    for (const k of Object.keys(QUERIES)) {
      if (qidoMs[y][k].meanMatches !== qidoMs.orthanc[k].meanMatches) {
        console.log(
          `WARNING ${ARCHIVES[y].label} QIDO ${k}: ${qidoMs[y][k].meanMatches} matches per answer, Orthanc ${qidoMs.orthanc[k].meanMatches}`,
        );
      }
    }
  }
  console.log(`\nwrite+fsync baseline: ${fsync.perSecond} files/s (runs ${fsync.runs.join(', ')})`);
  for (const y of YYP) {
    const r = ratios[y];
    console.log(
      `\n${ARCHIVES[y].label} (storescu ×4 / fsync, median of repetitions = ${fmt(r.storescu4VsFsync)} [${r.storescu4VsFsyncRuns.map(fmt).join(', ')}]; of medians = ${fmt(r.storescu4MedianVsFsyncMedian)}):`,
    );
    for (const g of Object.values(summary.goals[y])) {
      console.log(`  ${g.met ? 'met    ' : 'NOT met'}  ${g.target}`);
    }
  }
}

function gitCommit() {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'packages/server'], { encoding: 'utf8' }).trim();
    return dirty ? `${sha}+local-changes` : sha;
  } catch {
    return 'unknown';
  }
}

async function main() {
  const startedAt = Date.now();
  // Archives' files stay until the end (about 20 GB): see deferTempDirRemoval.
  deferTempDirRemoval();
  // Other work on the machine skews every figure: the 1-minute load average, at start and end.
  const loadAtStart = round(os.loadavg()[0], 2);
  const commit = gitCommit(); // at start: the tree may move during a long run
  log(`generating ${N} CT instances (512×512) and ${QIDO_STUDIES * 10} QIDO instances (64×64)`);
  const genStart = performance.now();
  const ct = await generateCtFiles(N);
  const warmup = WARMUP ? (await generateCtFiles(WARMUP, { prefix: 'warm' })).files : [];
  const population = await generateQidoFiles(QIDO_STUDIES, { perStudy: 10 });
  const generation = {
    instances: N,
    megabytes: round(ct.bytes / 1e6),
    seconds: round((performance.now() - genStart) / 1000, 2),
  };

  // The write+fsync baseline is measured right before each repetition of storescu ×4, and each
  // archive's ×4 rate is divided by the baseline of its own repetition: this disk's fsync rate
  // moves by a third within a minute (316–448 files/s in three back-to-back runs), so a baseline
  // taken minutes before would judge the archive by the disk's mood at another time.
  const fsyncRuns = [];

  // Path by path and repetition by repetition, every archive in turn, so drift on a shared
  // machine (its speed moves by a third within minutes) hits all archives alike.
  const runs = Object.fromEntries(Object.keys(ARCHIVES).map((a) => [a, {}]));
  for (const p of Object.keys(INGEST_PATHS)) {
    const each = Object.fromEntries(Object.keys(ARCHIVES).map((a) => [a, []]));
    for (let r = 0; r < REPEAT; r++) {
      if (p === 'storescu4') {
        log(`write+fsync baseline (${r + 1}/${REPEAT})`);
        fsyncRuns.push(await fsyncBaseline(ct.files));
      }
      for (const [a, { label, start }] of Object.entries(ARCHIVES)) {
        log(`${label}: ${PATH_LABELS[p]} of ${N} (${r + 1}/${REPEAT})`);
        each[a].push(await attempt(`${label} ${p}`, () => ingestPath(start, ct.files, p, { warmup })));
      }
    }
    for (const a of Object.keys(ARCHIVES)) {
      runs[a][p] = medianOrError(each[a]);
      if (p === 'storescu4') {
        runs[a].storescu4PerFsyncRuns = each[a].map((x, r) =>
          x.error ? null : round(x.perSecond / fsyncRuns[r].perSecond, 2),
        );
      }
    }
  }
  const fsync = medianRun(fsyncRuns);
  for (const [a, { label, start }] of Object.entries(ARCHIVES)) {
    log(`${label}: QIDO-RS on ${population.files.length} instances`);
    runs[a].qido = await attempt(`${label} QIDO`, () => qidoScenario(start, { population, requests: QIDO_REQUESTS }));
  }

  const summary = summarize(runs, fsync);
  const record = {
    benchmark: 'ingest',
    date: new Date().toISOString(),
    machine: {
      ...machine(),
      orthanc: versions.orthanc ?? 'unknown',
      yypCommit: commit,
      loadAverage1m: { start: loadAtStart, end: round(os.loadavg()[0], 2) },
    },
    n: N,
    repeat: REPEAT,
    warmupInstances: warmup.length,
    qido: { instances: population.files.length, studies: QIDO_STUDIES, requestsPerQuery: QIDO_REQUESTS },
    generation,
    fsyncBaseline: { perSecond: fsync.perSecond, seconds: fsync.seconds, runs: fsync.runs },
    ...summary,
    details: runs,
    wallSeconds: round((Date.now() - startedAt) / 1000),
  };
  fs.mkdirSync(new URL('.', RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, JSON.stringify(record, null, 2) + '\n');
  printTable(summary, fsync);
  console.log(`\n${record.wallSeconds} s; written to bench/results/ingest.json`);
}

await runBounded(main, TIMEOUT_S);
