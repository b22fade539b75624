#!/usr/bin/env node
// bench/ingest/orthanc-only: the Orthanc 1.10 (Debian) side of the ingest benchmark, end to end:
// storescu with 1 and 4 associations and STOW-RS of N 512×512 CT instances (each into an empty
// Orthanc), study-level QIDO-RS p50/p95 over 10,000 instances, and the write+fsync baseline of
// this disk. Prints one JSON summary. Everything runs on 127.0.0.1 and is removed afterwards.
// Usage: npm run build && node bench/ingest/orthanc-only.mjs
// Env: N (1000), REPEAT (3: median of runs), QIDO_STUDIES (1000), QIDO_PER_STUDY (10),
//      QIDO_REQUESTS (100), BENCH_TIMEOUT_S (1200)
import { fsyncBaseline, generateCtFiles } from '../lib/dicom-tools.mjs';
import { orthancInstanceCount, startOrthanc } from '../lib/orthanc.mjs';
import { machine, medianRun, round, runBounded } from '../lib/util.mjs';
import { ingestScenarios, qidoScenario } from './scenarios.mjs';

const N = Number(process.env.N || 1000);
const QIDO_STUDIES = Number(process.env.QIDO_STUDIES || 1000);
const QIDO_PER_STUDY = Number(process.env.QIDO_PER_STUDY || 10);
const QIDO_REQUESTS = Number(process.env.QIDO_REQUESTS || 100);
const REPEAT = Number(process.env.REPEAT || 3);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S || 1200);

let orthancVersion = 'unknown';

/** @type {import('./scenarios.mjs').ArchiveFactory} */
export async function startOrthancArchive() {
  const orthanc = await startOrthanc();
  orthancVersion = orthanc.version;
  return { target: orthanc, count: () => orthancInstanceCount(orthanc), stop: orthanc.stop };
}

async function main() {
  const log = (msg) => console.error(`[orthanc-only] ${msg}`);
  const startedAt = Date.now();

  log(`generating ${N} CT instances (512×512)`);
  const genStart = performance.now();
  const ct = await generateCtFiles(N);
  const generation = {
    instances: N,
    megabytes: round(ct.bytes / 1e6),
    seconds: round((performance.now() - genStart) / 1000, 2),
  };

  log('storescu ×1, storescu ×4, STOW-RS');
  const ingest = await ingestScenarios(startOrthancArchive, ct.files, { repeat: REPEAT });

  log('write+fsync baseline');
  const fsyncRuns = [];
  for (let i = 0; i < REPEAT; i++) {
    fsyncRuns.push(await fsyncBaseline(ct.files));
  }
  const fsync = medianRun(fsyncRuns);

  log(`QIDO-RS on ${QIDO_STUDIES * QIDO_PER_STUDY} instances`);
  const qido = await qidoScenario(startOrthancArchive, {
    studies: QIDO_STUDIES,
    perStudy: QIDO_PER_STUDY,
    requests: QIDO_REQUESTS,
  });

  return {
    benchmark: 'ingest',
    archive: `Orthanc ${orthancVersion} + DICOMweb plugin (Debian)`,
    date: new Date().toISOString(),
    machine: machine(),
    generation,
    instancesPerSecond: {
      storescu1: ingest.storescu1.perSecond,
      storescu4: ingest.storescu4.perSecond,
      stow: ingest.stow.perSecond,
      fsyncBaseline: fsync.perSecond,
    },
    qidoMs: {
      patientIdExact: { p50: qido.byPatientId.p50Ms, p95: qido.byPatientId.p95Ms },
      patientNameWildcard: { p50: qido.byNameWildcard.p50Ms, p95: qido.byNameWildcard.p95Ms },
      studyDateRange: { p50: qido.byDateRange.p50Ms, p95: qido.byDateRange.p95Ms },
    },
    details: { ingest, fsync, qido },
    wallSeconds: round((Date.now() - startedAt) / 1000),
  };
}

// Run only when executed directly, so the yyp side can import startOrthancArchive.
if (import.meta.url === `file://${process.argv[1]}`) {
  const summary = await runBounded(main, TIMEOUT_S);
  console.log(JSON.stringify(summary, null, 2));
}
