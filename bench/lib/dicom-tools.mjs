// Ingest and query load for any DICOM archive (Orthanc or yyp): test data from our generator,
// C-STORE with DCMTK storescu over K associations, STOW-RS, QIDO-RS latency and a
// write+fsync baseline. Every function takes a target ({ host, dicomPort, aet, callingAet,
// dicomWebBase, token }) so the same code measures both archives.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir, percentile, removeTempDir, round, run } from './util.mjs';

const GENERATOR = new URL('../../packages/server/dist/dicom/testdata/generate.js', import.meta.url);

/** The compiled test-data generator (packages/server/src/dicom/testdata/generate.ts). */
export async function loadGenerator() {
  try {
    return await import(GENERATOR.href);
  } catch (err) {
    if (err.code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(`${GENERATOR.pathname} is missing: run \`npm run build\` first`, { cause: err });
    }
    throw err;
  }
}

/**
 * Writes `count` CT instances (512×512, 16-bit by default) as studies of `perStudy` slices into
 * a temp dir removed at cleanup. Returns the file paths and their total size.
 */
export async function generateCtFiles(count, { rows = 512, columns = 512, perStudy = 100, prefix = 'ct' } = {}) {
  const { generateStudy, writeStudy } = await loadGenerator();
  const dir = makeTempDir(`yyp-bench-${prefix}-`);
  const files = [];
  let bytes = 0;
  for (let done = 0, n = 0; done < count; n++) {
    const size = Math.min(perStudy, count - done);
    const study = generateStudy({ modality: 'CT', rows, columns, instancesPerSeries: size });
    files.push(...(await writeStudy(dir, study)));
    bytes += study.instances.reduce((sum, i) => sum + i.bytes.length, 0);
    done += size;
  }
  return { dir, files, bytes };
}

const SURNAMES = ['WANG', 'LI', 'ZHANG', 'LIU', 'CHEN', 'YANG', 'HUANG', 'ZHAO', 'WU', 'ZHOU', 'XU', 'SUN', 'MA'];
const MORE_SURNAMES = ['ZHU', 'HU', 'GUO', 'HE', 'GAO', 'LIN', 'LUO', 'ZHENG', 'LIANG', 'XIE', 'SONG', 'TANG', 'DENG'];
const GIVEN = ['WEI', 'FANG', 'NA', 'MIN', 'JING', 'LEI', 'QIANG', 'JUN', 'YAN', 'JIE', 'TAO', 'MING', 'CHAO'];
export const QIDO_SURNAMES = [...SURNAMES, ...MORE_SURNAMES, 'DOE', 'SMITH', 'GARCIA', 'MARTIN', 'NGUYEN'];
/** Study dates fall in 1,000 days from this one, so a 30-day range matches about 3%. */
export const QIDO_FIRST_DATE = Date.UTC(2021, 0, 1);

export function dicomDate(ms) {
  return new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
}

/**
 * A searchable archive population: `studies` small CT studies of `perStudy` 64×64 slices, two
 * studies per patient, varied names (about 3% per surname) and dates spread over 1,000 days.
 */
export async function generateQidoFiles(studies, { perStudy = 10, rows = 64, columns = 64 } = {}) {
  const { generateStudy, writeStudy } = await loadGenerator();
  const dir = makeTempDir('yyp-bench-qido-');
  const files = [];
  const patients = [];
  for (let s = 0; s < studies; s++) {
    const p = Math.floor(s / 2);
    const patientId = `QP${String(p).padStart(6, '0')}`;
    const surname = QIDO_SURNAMES[p % QIDO_SURNAMES.length];
    const study = generateStudy({
      modality: 'CT',
      rows,
      columns,
      instancesPerSeries: perStudy,
      patientId,
      patientName: `${surname}^${GIVEN[p % GIVEN.length]}`,
      patientSex: p % 2 ? 'M' : 'F',
      studyDate: dicomDate(QIDO_FIRST_DATE + ((s * 37) % 1000) * 86_400_000),
      accessionNumber: `QA${String(s).padStart(8, '0')}`,
    });
    if (s % 2 === 0) {
      patients.push(patientId);
    }
    files.push(...(await writeStudy(dir, study)));
  }
  return { dir, files, patients, studies };
}

/** Splits `items` round-robin into `k` lists (so each association gets a mix of studies). */
function split(items, k) {
  const out = Array.from({ length: k }, () => []);
  items.forEach((item, i) => out[i % k].push(item));
  return out.filter((l) => l.length > 0);
}

/** Files per storescu invocation: keeps the command line far below ARG_MAX. */
const STORESCU_BATCH = 2000;

/**
 * C-STORE `files` with K parallel associations (K storescu processes). storescu proposes only
 * the SOP classes and uncompressed transfer syntaxes the files need (-R), which every archive
 * accepts for CT. Resolves with wall time and instances/s; rejects if any store failed.
 */
export async function storescu(target, files, { associations = 1, timeoutMs = 600_000, extraArgs = [] } = {}) {
  const base = ['-R', '-aet', target.callingAet ?? 'BENCHSCU', '-aec', target.aet, '-ta', '30', '-td', '60'];
  const start = performance.now();
  await Promise.all(
    split(files, associations).map(async (list) => {
      for (let i = 0; i < list.length; i += STORESCU_BATCH) {
        const batch = list.slice(i, i + STORESCU_BATCH);
        const args = [...base, ...extraArgs, target.host, String(target.dicomPort), ...batch];
        // TCP_NODELAY: DCMTK keeps Nagle on unless this is set (see DESIGN.md on ~18/s stalls).
        const r = await run('storescu', args, { env: { TCP_NODELAY: '1' }, timeoutMs });
        if (r.code !== 0) {
          throw new Error(`storescu exited ${r.code ?? r.signal}${r.timedOut ? ' (timeout)' : ''}: ${r.stderr}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  return {
    instances: files.length,
    associations,
    seconds: round(seconds, 2),
    perSecond: round(files.length / seconds),
  };
}

function authHeaders(target) {
  return target.token ? { authorization: `Bearer ${target.token}` } : {};
}

/** One multipart/related body of DICOM files (PS3.18 §10.5 STOW-RS request). */
export function stowBody(parts, boundary) {
  const chunks = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`), part, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/**
 * STOW-RS `files` to `${dicomWebBase}/studies` in batches of `batchSize` with `concurrency`
 * requests in flight. Counts what the archive reports as stored (ReferencedSOPSequence) and failed
 * (FailedSOPSequence).
 */
export async function stow(target, files, { batchSize = 50, concurrency = 4, timeoutMs = 120_000 } = {}) {
  const batches = [];
  for (let i = 0; i < files.length; i += batchSize) {
    batches.push(files.slice(i, i + batchSize));
  }
  let stored = 0;
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++];
      const boundary = `yyp-${randomBytes(12).toString('hex')}`;
      const body = stowBody(await Promise.all(batch.map((f) => fs.promises.readFile(f))), boundary);
      const res = await fetch(`${target.dicomWebBase}/studies`, {
        method: 'POST',
        headers: {
          'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}`,
          accept: 'application/dicom+json',
          ...authHeaders(target),
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      if (!res.ok && res.status !== 202 && res.status !== 409) {
        throw new Error(`STOW-RS answered ${res.status}: ${text.slice(0, 500)}`);
      }
      const json = text ? JSON.parse(text) : {};
      stored += json['00081199']?.Value?.length ?? 0;
      failed += json['00081198']?.Value?.length ?? 0;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  const seconds = (performance.now() - start) / 1000;
  return {
    instances: files.length,
    stored,
    failed,
    batchSize,
    concurrency,
    seconds: round(seconds, 2),
    perSecond: round(stored / seconds),
  };
}

/**
 * Latency of QIDO-RS: `warmup` untimed then `requests` timed sequential GETs of
 * `${dicomWebBase}/${query(i)}` (query returns e.g. "studies?PatientID=X" for request i). Returns p50/p95/mean in ms and the mean match count,
 * so an empty answer is not mistaken for a fast one.
 */
export async function qidoTiming(target, query, { requests = 100, warmup = 5, timeoutMs = 30_000 } = {}) {
  const times = [];
  let matches = 0;
  for (let i = 0; i < warmup + requests; i++) {
    const url = `${target.dicomWebBase}/${query(i)}`;
    const start = performance.now();
    const res = await fetch(url, {
      headers: { accept: 'application/dicom+json', ...authHeaders(target) },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    const ms = performance.now() - start;
    if (!res.ok && res.status !== 204) {
      throw new Error(`QIDO ${url} answered ${res.status}: ${text.slice(0, 300)}`);
    }
    if (i >= warmup) {
      times.push(ms);
      matches += text ? JSON.parse(text).length : 0;
    }
  }
  return {
    requests,
    p50Ms: round(percentile(times, 50), 2),
    p95Ms: round(percentile(times, 95), 2),
    meanMs: round(times.reduce((a, b) => a + b, 0) / times.length, 2),
    meanMatches: round(matches / requests, 1),
  };
}

/**
 * What the disk alone allows: write each file's bytes to a new file and fsync it, one file at a
 * time (as a durable archive must before acknowledging). Reading the sources is not timed.
 */
export async function fsyncBaseline(files) {
  const dir = makeTempDir('yyp-bench-fsync-');
  let writeMs = 0;
  for (let i = 0; i < files.length; i++) {
    const bytes = await fs.promises.readFile(files[i]);
    const start = performance.now();
    const fh = await fs.promises.open(path.join(dir, `${i}.dcm`), 'w');
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    writeMs += performance.now() - start;
  }
  await removeTempDir(dir);
  return { files: files.length, seconds: round(writeMs / 1000, 2), perSecond: round(files.length / (writeMs / 1000)) };
}
