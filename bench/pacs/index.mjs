#!/usr/bin/env node
// bench/pacs: the PACS services of issue 28, yyp beside tuned Orthanc (Debian's 1.10) in one run.
// - C-FIND (Study Root, STUDY level) latency on an archive of BENCH_PACS_STUDIES studies (default
//   100,000, one small CT instance each, loaded into both with storescu over 4 associations): p50 and
//   p95 of BENCH_PACS_QUERIES queries (default 100, after 5 untimed) per case — PatientID exact,
//   PatientName wildcard, a 30-day StudyDate range — one association per query as a workstation
//   does, from the C-FIND-RQ to the final response, answers read (the project's DIMSE test SCU).
// - C-MOVE throughput: a BENCH_PACS_MOVE-instance CT study (default 1,000, 512×512) moved from each
//   archive into a DCMTK storescp (the same destination AE, TCP_NODELAY on every side), instances
//   per second from the C-MOVE-RQ to the final response; the median of BENCH_PACS_MOVE_RUNS (3).
// - WADO-RS rendered: GET …/frames/1/rendered (Accept image/jpeg) of BENCH_PACS_RENDERED (default
//   100, after 5 untimed) distinct slices of that CT study (512×512, 16-bit), one request at a time
//   on a kept-alive connection, p50 and p95 from the request to the last byte; each answer checked
//   to be a JPEG. Orthanc answers through its DICOMweb plugin.
// Each archive's figures are taken once the machine is quiet after its load (quiet()).
// yyp runs on its own PostgreSQL database; Orthanc with StorageAccessOnFind "Never" (answers from
// its index only) and its own SQLite index. Writes bench/results/pacs.json (BENCH_RESULT: another).
// The goal: each figure at least as good as Orthanc's.
// Usage: npm run build && node bench/pacs/index.mjs
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildCommit, loadDicom } from '../mwl/cfind.mjs';
import {
  QIDO_FIRST_DATE,
  QIDO_SURNAMES,
  dicomDate,
  generateQidoFiles,
  loadGenerator,
  storescu,
} from '../lib/dicom-tools.mjs';
import { ensureOrthancInstalled, startOrthanc } from '../lib/orthanc.mjs';
import {
  freePort,
  machine,
  machineCpu,
  makeTempDir,
  onCleanup,
  percentile,
  round,
  runBounded,
  sleep,
} from '../lib/util.mjs';
import { startYyp } from '../lib/yyp.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const STUDIES = Number(process.env.BENCH_PACS_STUDIES || 100_000);
const QUERIES = Number(process.env.BENCH_PACS_QUERIES || 100);
const MOVE_INSTANCES = Number(process.env.BENCH_PACS_MOVE || 1000);
const MOVE_RUNS = Number(process.env.BENCH_PACS_MOVE_RUNS || 3);
const RENDERED = Number(process.env.BENCH_PACS_RENDERED || 100);
const WARMUP = 5;
const DEST = 'BENCH_DEST';
const STUDY_ROOT_FIND = '1.2.840.10008.5.1.4.1.2.2.1';
const STUDY_ROOT_MOVE = '1.2.840.10008.5.1.4.1.2.2.2';
const EXPLICIT = '1.2.840.10008.1.2.1';
const spread = (i, size) => (i * 7919) % size;

/** The C-MOVE destination: DCMTK's storescp as BENCH_DEST, accepting every syntax, writing into a temp dir. */
async function startDestination() {
  const dir = makeTempDir('yyp-bench-pacs-dest-');
  const port = await freePort();
  const child = spawn('storescp', ['-aet', DEST, '+xa', '-od', dir, String(port)], {
    env: { ...process.env, TCP_NODELAY: '1' },
    stdio: 'ignore',
  });
  onCleanup(async () => {
    child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await sleep(500);
  return { port, dir, clear: () => fs.rmSync(dir, { recursive: true, force: true }) || fs.mkdirSync(dir) };
}

/** One C-FIND or C-MOVE on a fresh association, timed from the request to the final response. */
async function timed(d, target, sopClass, identifier, moveTo) {
  const scu = await d.TestScu.associate(target.dicomPort, {
    callingAe: target.callingAet,
    calledAe: target.aet,
    contexts: [{ id: 1, abstractSyntax: sopClass, transferSyntaxes: [EXPLICIT] }],
    maxPduLength: 1_048_576,
  });
  const start = performance.now();
  scu.send(
    1,
    {
      commandField: moveTo ? 0x0021 : 0x0020,
      affectedSopClassUid: sopClass,
      priority: 0,
      ...(moveTo ? { moveDestination: moveTo } : {}),
    },
    identifier,
  );
  const responses = await scu.responsesUntilFinal(600_000);
  const ms = performance.now() - start;
  await scu.release();
  const final = responses.at(-1);
  return { ms, matches: responses.length - 1, status: final.status, command: final.command };
}

function studyQuery(d, keys) {
  const ds = new d.DatasetBuilder('ISO_IR 192')
    .text(0x00080005, 'CS', 'ISO_IR 192')
    .text(0x00080052, 'CS', 'STUDY')
    .text(0x00100010, 'PN', keys.PatientName ?? '')
    .text(0x00100020, 'LO', keys.PatientID ?? '')
    .text(0x00080020, 'DA', keys.StudyDate ?? '')
    .text(0x0020000d, 'UI', '')
    .text(0x00080050, 'SH', '')
    .text(0x00080061, 'CS', '')
    .text(0x00201208, 'IS', '');
  return ds.toBuffer(true);
}

async function findCase(d, target, identifierOf) {
  for (let i = 0; i < WARMUP; i++) await timed(d, target, STUDY_ROOT_FIND, identifierOf(QUERIES + i));
  const ms = [];
  let matches = 0;
  for (let i = 0; i < QUERIES; i++) {
    const r = await timed(d, target, STUDY_ROOT_FIND, identifierOf(i));
    if (r.status !== 0) throw new Error(`C-FIND answered 0x${r.status.toString(16)}`);
    ms.push(r.ms);
    matches += r.matches;
  }
  return {
    p50: round(percentile(ms, 50), 2),
    p95: round(percentile(ms, 95), 2),
    meanMatches: round(matches / QUERIES, 1),
  };
}

async function finds(d, target, population) {
  const { patients } = population;
  return {
    byPatientId: await findCase(d, target, (i) => studyQuery(d, { PatientID: patients[spread(i, patients.length)] })),
    byNameWildcard: await findCase(d, target, (i) =>
      studyQuery(d, { PatientName: `${QIDO_SURNAMES[spread(i, QIDO_SURNAMES.length)]}*` }),
    ),
    byDateRange: await findCase(d, target, (i) => {
      const from = QIDO_FIRST_DATE + spread(i, 970) * 86_400_000;
      return studyQuery(d, { StudyDate: `${dicomDate(from)}-${dicomDate(from + 29 * 86_400_000)}` });
    }),
  };
}

async function moves(d, target, studyUid, destination) {
  const identifier = new d.DatasetBuilder('')
    .text(0x00080052, 'CS', 'STUDY')
    .text(0x0020000d, 'UI', studyUid)
    .toBuffer(true);
  const runs = [];
  for (let i = 0; i < MOVE_RUNS; i++) {
    destination.clear();
    const r = await timed(d, target, STUDY_ROOT_MOVE, identifier, DEST);
    const received = fs.readdirSync(destination.dir).length;
    if (r.status !== 0 || received !== MOVE_INSTANCES) {
      throw new Error(`C-MOVE ended 0x${r.status.toString(16)} with ${received} of ${MOVE_INSTANCES} received`);
    }
    runs.push(MOVE_INSTANCES / (r.ms / 1000));
  }
  runs.sort((a, b) => a - b);
  return {
    instances: MOVE_INSTANCES,
    runs: runs.map((r) => round(r)),
    perSecond: round(runs[Math.floor(runs.length / 2)]),
  };
}

/**
 * Waits until the machine is quiet (under 10% of its CPU busy over 3 s, at most 10 minutes) and
 * answers the seconds waited: what an archive does after a load (indexing, statistics, the
 * database's autovacuum) finishes before its queries are timed, for both archives alike.
 */
async function quiet() {
  const start = performance.now();
  let last = machineCpu();
  while (performance.now() - start < 600_000) {
    await sleep(3000);
    const now = machineCpu();
    const busy = (now.busy - last.busy) / Math.max(1, now.busy - last.busy + now.idle - last.idle);
    last = now;
    if (busy < 0.1) break;
  }
  return round((performance.now() - start) / 1000, 1);
}

/** p50/p95 of rendered JPEGs of distinct slices of the moved study, one request at a time. */
async function rendered(target, headers, study) {
  const url = (i) =>
    `${target.dicomWebBase}/studies/${study.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}/frames/1/rendered`;
  const slices = study.instances.filter(
    (_, n) => n % Math.max(1, Math.floor(study.instances.length / (RENDERED + WARMUP))) === 0,
  );
  const times = [];
  let bytes = 0;
  for (const [n, i] of slices.slice(0, RENDERED + WARMUP).entries()) {
    const start = performance.now();
    const res = await fetch(url(i), { headers: { accept: 'image/jpeg', ...headers } });
    const body = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - start;
    if (res.status !== 200 || body[0] !== 0xff || body[1] !== 0xd8) {
      throw new Error(
        `rendered answered ${res.status} ${res.headers.get('content-type')}: ${body.subarray(0, 200).toString()}`,
      );
    }
    if (n >= WARMUP) {
      times.push(ms);
      bytes += body.length;
    }
  }
  return {
    requests: times.length,
    p50: round(percentile(times, 50), 2),
    p95: round(percentile(times, 95), 2),
    meanBytes: Math.round(bytes / times.length),
  };
}

async function main() {
  ensureOrthancInstalled();
  const d = await loadDicom();
  const population = await generateQidoFiles(STUDIES, { perStudy: 1, rows: 16, columns: 16 });
  // The moved study: one CT series of MOVE_INSTANCES 512×512 slices.
  const { generateStudy, writeStudy } = await loadGenerator();
  const moveStudy = generateStudy({ modality: 'CT', rows: 512, columns: 512, instancesPerSeries: MOVE_INSTANCES });
  const big = { files: await writeStudy(makeTempDir('yyp-bench-pacs-move-'), moveStudy) };
  const moveStudyUid = moveStudy.studyInstanceUid;
  const destination = await startDestination();
  const result = {
    benchmark: 'pacs',
    commit: buildCommit(),
    date: new Date().toISOString(),
    machine: machine(),
    studies: STUDIES,
    queries: QUERIES,
    moveInstances: MOVE_INSTANCES,
    archives: {},
  };

  // yyp: the demo's modality is the workstation; the destination a device of its organization.
  const yyp = await startYyp({ store: 'postgres', env: { DICOM_FORWARD_STABLE_SECONDS: '3600' } });
  const pool = new pg.Pool({ connectionString: yyp.dbUrl, max: 1 });
  const [demo] = (await pool.query(`select bucket_id from modalities where ae_title = $1`, [yyp.callingAet])).rows;
  await pool.query(
    `insert into modalities (id, bucket_id, ae_title, host, port, name) values ('bench-dest', $1, $2, '127.0.0.1', $3, 'bench')`,
    [demo.bucket_id, DEST, destination.port],
  );
  await pool.end();
  const yLoad = await storescu(yyp, population.files, { associations: 4 });
  const yMoveLoad = await storescu(yyp, big.files, { associations: 4 });
  const yQuiet = await quiet();
  console.log(
    `yyp: loaded ${population.files.length} in ${yLoad.seconds} s, the move study in ${yMoveLoad.seconds} s, quiet after ${yQuiet} s`,
  );
  result.archives.yyp = {
    version: yyp.version,
    load: yLoad,
    quietAfterLoadSeconds: yQuiet,
    find: await finds(d, yyp, population),
    move: await moves(d, yyp, moveStudyUid, destination),
    rendered: await rendered(yyp, { authorization: `Bearer ${yyp.token}` }, moveStudy),
  };
  console.log('yyp', JSON.stringify(result.archives.yyp));
  await yyp.stop();

  const orthanc = await startOrthanc({
    callingAet: 'BENCHSCU',
    config: {
      StorageAccessOnFind: 'Never',
      DicomModalities: {
        bench: {
          AET: 'BENCHSCU',
          Host: '127.0.0.1',
          Port: 104,
          AllowStore: true,
          AllowEcho: true,
          AllowFind: true,
          AllowMove: true,
        },
        dest: { AET: DEST, Host: '127.0.0.1', Port: destination.port },
      },
    },
  });
  const oLoad = await storescu(orthanc, population.files, { associations: 4 });
  const oMoveLoad = await storescu(orthanc, big.files, { associations: 4 });
  const oQuiet = await quiet();
  console.log(
    `orthanc: loaded ${population.files.length} in ${oLoad.seconds} s, the move study in ${oMoveLoad.seconds} s, quiet after ${oQuiet} s`,
  );
  result.archives.orthanc = {
    version: orthanc.version,
    load: oLoad,
    quietAfterLoadSeconds: oQuiet,
    find: await finds(d, orthanc, population),
    move: await moves(d, orthanc, moveStudyUid, destination),
    rendered: await rendered(orthanc, {}, moveStudy),
  };
  console.log('orthanc', JSON.stringify(result.archives.orthanc));
  await orthanc.stop();

  const y = result.archives.yyp;
  const o = result.archives.orthanc;
  const ratio = (a, b) => round(a / b, 2);
  result.vsOrthanc = {
    findP95: Object.fromEntries(Object.keys(y.find).map((k) => [k, ratio(y.find[k].p95, o.find[k].p95)])),
    moveThroughput: ratio(y.move.perSecond, o.move.perSecond),
    renderedP50: ratio(y.rendered.p50, o.rendered.p50),
  };
  result.goalMet =
    Object.values(result.vsOrthanc.findP95).every((r) => r <= 1) &&
    result.vsOrthanc.moveThroughput >= 1 &&
    result.vsOrthanc.renderedP50 <= 1;
  result.loadAverage = os.loadavg().map((l) => round(l, 2));
  const out = process.env.BENCH_RESULT || path.join(root, 'bench/results/pacs.json');
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result.vsOrthanc), 'goalMet', result.goalMet, '→', path.relative(root, out));
}

await runBounded(main, Number(process.env.BENCH_TIMEOUT_S || 7200));
