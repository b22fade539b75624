// The ingest benchmark scenarios, independent of which archive runs them. A "target factory"
// starts a fresh, empty archive and returns { target, count, stop }, so every scenario measures
// ingest into an empty store and the Orthanc and yyp runs stay comparable.
import {
  QIDO_FIRST_DATE,
  QIDO_SURNAMES,
  dicomDate,
  generateQidoFiles,
  qidoTiming,
  stow,
  storescu,
} from '../lib/dicom-tools.mjs';
import { medianRun } from '../lib/util.mjs';

/**
 * @typedef {import('../lib/orthanc.mjs').DicomTarget} DicomTarget
 * @typedef {{ target: DicomTarget, count?: () => Promise<number>, stop: () => Promise<void> }} Archive
 * @typedef {() => Promise<Archive>} ArchiveFactory
 */

/** Runs `fn` against a fresh archive and checks the archive holds `expected` instances after. */
async function withFreshArchive(startArchive, expected, fn) {
  const archive = await startArchive();
  try {
    const result = await fn(archive.target);
    if (archive.count) {
      const stored = await archive.count();
      result.storedInArchive = stored;
      if (stored !== expected) {
        result.warning = `archive holds ${stored} instances, expected ${expected}`;
      }
    }
    return result;
  } finally {
    await archive.stop();
  }
}

/**
 * Runs a throughput measurement `times` times and keeps the median run: on a shared machine a
 * single run can be off by half.
 */
async function median(times, fn) {
  const runs = [];
  for (let i = 0; i < times; i++) {
    runs.push(await fn());
  }
  const warnings = runs.map((r) => r.warning).filter(Boolean);
  return { ...medianRun(runs), ...(warnings.length ? { warnings } : {}) };
}

/** The ingest paths: each sends the same files into an empty archive. */
export const INGEST_PATHS = {
  storescu1: (t, files) => storescu(t, files, { associations: 1 }),
  storescu4: (t, files) => storescu(t, files, { associations: 4 }),
  stow: (t, files, { stowBatch = 50, stowConcurrency = 4 } = {}) =>
    stow(t, files, { batchSize: stowBatch, concurrency: stowConcurrency }),
};

/**
 * One ingest path (a key of INGEST_PATHS) into a fresh archive, repeated `repeat` times (median
 * reported). `warmup` files (another study) are sent first the same way, untimed: a server
 * answers its first requests slower than its steady state (yyp's JavaScript is compiled while it
 * runs; any archive's caches are cold), and a few seconds of load would weigh that start-up in.
 * @param {ArchiveFactory} startArchive
 * @param {string[]} files
 * @param {{ repeat?: number, warmup?: string[] }} [opts]
 */
export function ingestPath(startArchive, files, name, { repeat = 1, warmup = [], ...opts } = {}) {
  return median(repeat, () =>
    withFreshArchive(startArchive, files.length + warmup.length, async (t) => {
      if (warmup.length) await INGEST_PATHS[name](t, warmup, opts);
      const result = await INGEST_PATHS[name](t, files, opts);
      return warmup.length ? { ...result, warmupInstances: warmup.length } : result;
    }),
  );
}

/**
 * C-STORE with 1 and 4 associations and STOW-RS of the same files, each run into an empty
 * archive, each repeated `repeat` times (median reported).
 * @param {ArchiveFactory} startArchive
 * @param {string[]} files
 */
export async function ingestScenarios(startArchive, files, opts = {}) {
  const out = {};
  for (const name of Object.keys(INGEST_PATHS)) {
    out[name] = await ingestPath(startArchive, files, name, opts);
  }
  return out;
}

/**
 * Every match in one answer (yyp pages at 100 by default, Orthanc not at all), so both archives
 * return the same studies: "LI*" also matches LIU, LIN and LIANG, about 130 studies.
 */
const ALL = 'limit=1000';

/** Spreads request i over the population without repeating neighbours. */
const spread = (i, size) => (i * 7919) % size;

/**
 * Study-level QIDO-RS latency on an archive of `studies` × `perStudy` small CT instances (loaded
 * with storescu over 4 associations): PatientID exact, PatientName wildcard, 30-day StudyDate range.
 * Pass `population` (from generateQidoFiles) to query the same files on several archives.
 * @param {ArchiveFactory} startArchive
 */
export async function qidoScenario(startArchive, { studies = 1000, perStudy = 10, requests = 100, population } = {}) {
  population ??= await generateQidoFiles(studies, { perStudy });
  const total = population.files.length;
  return withFreshArchive(startArchive, total, async (target) => {
    const load = await storescu(target, population.files, { associations: 4 });
    const { patients } = population;
    const byPatientId = await qidoTiming(
      target,
      (i) => `studies?${ALL}&PatientID=${patients[spread(i, patients.length)]}`,
      { requests },
    );
    const byNameWildcard = await qidoTiming(
      target,
      (i) => `studies?${ALL}&PatientName=${QIDO_SURNAMES[spread(i, QIDO_SURNAMES.length)]}*`,
      { requests },
    );
    const byDateRange = await qidoTiming(
      target,
      (i) => {
        const from = QIDO_FIRST_DATE + spread(i, 970) * 86_400_000;
        return `studies?${ALL}&StudyDate=${dicomDate(from)}-${dicomDate(from + 29 * 86_400_000)}`;
      },
      { requests },
    );
    return { instances: total, studies: population.studies, load, byPatientId, byNameWildcard, byDateRange };
  });
}
