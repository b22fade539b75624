import fs from 'node:fs/promises';
import path from 'node:path';
import { DicomError, parseInstance } from '../../dicom/parse.js';
import { indexStoredInstance, type IngestDeps } from './ingest.js';
import { allBucketIds, indexedBlobKeys } from './reindex.store.js';

/** dicom/{bucketId}/{study}/{series}/{file}.dcm: where the ingest keeps every instance. */
const DICOM_KEY = /^dicom\/([^/]+)\/[^/]+\/[^/]+\/[^/]+\.dcm$/;
const CHUNK = 500;

export interface ReindexReport {
  scanned: number;
  alreadyIndexed: number;
  indexed: number;
  /** files whose SOP Instance UID is indexed under another file (extra copies) */
  duplicates: string[];
  unreadable: string[];
  /** files of organizations that no longer exist */
  orphaned: number;
}

/** Every key under `prefix` of a local blob store folder, in no particular order. */
export async function* localKeys(root: string, prefix: string): AsyncGenerator<string> {
  const walk = async function* (dir: string): AsyncGenerator<string> {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) yield* walk(full);
      else yield path.relative(root, full).split(path.sep).join('/');
    }
  };
  yield* walk(path.join(root, prefix));
}

/**
 * Rebuilds missing archive index rows from the stored DICOM files: each file under dicom/ that no
 * instance row references is parsed and indexed into its organization, exactly as if it had just
 * arrived (exam, series and counters included). Files already indexed are left alone. With
 * `dryRun` nothing is written; the report says what would be.
 */
export async function reindex(
  deps: IngestDeps,
  keys: AsyncIterable<string>,
  opts: { dryRun?: boolean; onProgress?: (r: ReindexReport) => void } = {},
): Promise<ReindexReport> {
  const report: ReindexReport = {
    scanned: 0,
    alreadyIndexed: 0,
    indexed: 0,
    duplicates: [],
    unreadable: [],
    orphaned: 0,
  };
  const bucketIds = await allBucketIds(deps.db);
  let chunk: { key: string; bucketId: string }[] = [];
  const flush = async () => {
    const known = await indexedBlobKeys(
      deps.db,
      chunk.map((c) => c.key),
    );
    for (const { key, bucketId } of chunk) {
      if (known.has(key)) {
        report.alreadyIndexed++;
        continue;
      }
      if (!bucketIds.has(bucketId)) {
        report.orphaned++;
        continue;
      }
      try {
        const bytes = await deps.blobs.get(key);
        if (opts.dryRun) {
          parseInstance(bytes);
          report.indexed++;
          continue;
        }
        const r = await indexStoredInstance(deps, { bucketId, blobKey: key, bytes });
        if (r.duplicate) report.duplicates.push(key);
        else report.indexed++;
      } catch (err) {
        if (!(err instanceof DicomError)) throw err;
        report.unreadable.push(key);
      }
    }
    chunk = [];
    opts.onProgress?.(report);
  };
  for await (const key of keys) {
    const m = DICOM_KEY.exec(key);
    if (!m) continue;
    report.scanned++;
    chunk.push({ key, bucketId: m[1]! });
    if (chunk.length >= CHUNK) await flush();
  }
  if (chunk.length) await flush();
  return report;
}
