import crypto from 'node:crypto';
import { DicomError, parseInstance, type ParsedInstance } from '../../dicom/parse.js';
import { zeroPreamble } from '../../dicom/preamble.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { rawTransaction, sqlState } from '../../platform/sql.js';
import { writeBatch, type PendingInstance, type WrittenInstance } from './archive.store.js';

export type IngestSource = 'web' | 'token' | 'dimse' | 'stow';

export interface IngestResult {
  examId: string;
  seriesId: string;
  instanceId: string;
  sopInstanceUid: string;
  sopClassUid: string;
  studyInstanceUid: string;
  /** the instance was already stored: nothing was written */
  duplicate: boolean;
  /** this instance created the exam */
  newExam: boolean;
}

export interface IngestDeps {
  db: Db;
  blobs: BlobStore;
  clock: Clock;
  /**
   * PostgreSQL: wait for the WAL flush at each ingest commit. Off by default: the bytes are
   * fsynced before the rows commit and the answer is sent after the commit, so a crash of yyp
   * loses nothing; only a crash of the database server itself within its WAL writer delay can
   * lose the last index rows, whose files remain and are indexed again by `yyp reindex` (the
   * durability Orthanc has with SQLite in WAL mode). On: every acknowledged instance is indexed
   * durably too, at about one more disk flush per transaction.
   */
  syncCommit?: boolean;
  /** called once per new exam, after its first instance committed */
  onNewExam?: (examId: string, bucketId: string, source: IngestSource) => void;
}

/** Rows per transaction at most; a larger backlog is written in several. */
const MAX_BATCH = 256;
/**
 * Batches in flight at once per database: one. Two let a second batch wait on the first's row
 * locks (same study) instead of growing while the first commits; measured, four associations
 * store about 15 % more with one (bench/ingest, PostgreSQL).
 */
const MAX_IN_FLIGHT = 1;
/** Deadlock or serialization failure between two writers: the batch is simply written again. */
const RETRY_STATES = new Set(['40P01', '40001']);

interface Job {
  item: PendingInstance;
  /** the instance's blob is durable: the rows may commit */
  durable: Promise<void>;
  resolve: (w: WrittenInstance) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for the ingest rows. Each instance's rows are queued; whatever queued while the
 * previous transaction ran is written by the next one, in a single upsert statement and a single
 * counter update. One association sending alone gets a transaction per instance; many senders
 * (STOW-RS parts, parallel associations, the upload wizard's parallel files) share transactions,
 * and so the database's commit flush. A failing batch is retried one instance at a time, so a bad
 * row fails only its own instance.
 */
class IngestWriter {
  private readonly queue: Job[] = [];
  private inFlight = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly syncCommit: boolean,
  ) {}

  submit(item: PendingInstance, durable: Promise<void>): Promise<WrittenInstance> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, durable, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async flush(batch: Job[]): Promise<void> {
    try {
      const written = await this.write(batch);
      batch.forEach((j, n) => j.resolve(written[n]!));
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      for (const job of batch) await this.flush([job]);
    }
  }

  private async write(batch: Job[]): Promise<WrittenInstance[]> {
    const items = batch.map((j) => j.item);
    for (let attempt = 1; ; attempt++) {
      try {
        return await rawTransaction(
          this.db,
          async (tx) => {
            const written = await writeBatch(tx, items, this.clock.now());
            // The rows were written while the blobs were still being flushed; they commit only
            // once every blob is durable (a failed blob fails the batch, retried one by one).
            await Promise.all(batch.map((j) => j.durable));
            return written;
          },
          { asyncCommit: !this.syncCommit },
        );
      } catch (err) {
        if (attempt >= 3 || !RETRY_STATES.has(sqlState(err) ?? '')) throw err;
      }
    }
  }
}

const writers = new WeakMap<Db, IngestWriter>();

function writerFor(db: Db, clock: Clock, syncCommit: boolean): IngestWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = new IngestWriter(db, clock, syncCommit);
    writers.set(db, writer);
  }
  return writer;
}

/**
 * The one ingest pipeline every path uses (web, upload token, DIMSE, STOW-RS): parse and validate
 * the header, zero the preamble, store the bytes (atomically, fsynced) under a key of their own and meanwhile upsert
 * patient, exam, series and instance (group-committed with other instances arriving meanwhile),
 * committing the rows only after the bytes are durable. A re-sent
 * SOP Instance UID is stored once: the new copy's blob is removed again. Invalid input throws
 * DicomError and leaves nothing behind; a crash between blob and rows leaves only an unreferenced
 * blob, never a row without its bytes. (A large upload already on disk takes ingest-file.ts:
 * the same steps without holding the file in memory.)
 */
export async function ingestInstance(
  deps: IngestDeps,
  input: { bucketId: string; bytes: Uint8Array; source: IngestSource },
): Promise<IngestResult> {
  const p = parseInstance(input.bytes);
  zeroPreamble(input.bytes);
  const { bucketId, bytes, source } = input;
  return storeAndIndex(deps, { bucketId, p, size: bytes.length, source }, (key) => deps.blobs.putNew(key, bytes));
}

/**
 * The rest of the ingest once an instance is parsed and its preamble zeroed: `write` stores its
 * bytes under a key of their own while its rows are written; the rows commit once the bytes are
 * durable. A duplicate's blob is removed again, and so is the blob of a refused instance.
 */
export async function storeAndIndex(
  deps: IngestDeps,
  input: { bucketId: string; p: ParsedInstance; size: number; source: IngestSource },
  write: (blobKey: string) => Promise<void>,
): Promise<IngestResult> {
  const { p } = input;
  const unique = crypto.randomBytes(6).toString('hex');
  const blobKey = `dicom/${input.bucketId}/${p.studyInstanceUid}/${p.seriesInstanceUid}/${p.sopInstanceUid}.${unique}.dcm`;
  const durable = write(blobKey);
  durable.catch(() => undefined); // awaited by the writer; a failure fails this instance there
  let written: WrittenInstance;
  try {
    written = await writerFor(deps.db, deps.clock, deps.syncCommit ?? false).submit(
      { bucketId: input.bucketId, p, blobKey, size: input.size, source: input.source },
      durable,
    );
  } catch (err) {
    await durable.catch(() => undefined);
    await deps.blobs.delete(blobKey).catch(() => undefined);
    throw refusedValue(err);
  }
  if (written.duplicate) await deps.blobs.delete(blobKey);
  if (written.newExam) deps.onNewExam?.(written.examId, input.bucketId, input.source);
  return resultOf(written, p);
}

/**
 * A value the database refused (SQLSTATE class 22, data exception) is the instance's fault, not
 * the server's: refused like an unreadable file (C-STORE 0xA900, STOW-RS 0xC000), never "out of
 * resources". The parser already leaves out what PostgreSQL cannot store; this is the backstop.
 */
function refusedValue(err: unknown): unknown {
  const state = sqlState(err);
  return state?.startsWith('22') ? new DicomError(`a value cannot be stored (SQLSTATE ${state})`, 'malformed') : err;
}

function resultOf(written: WrittenInstance, p: ParsedInstance): IngestResult {
  return {
    ...written,
    sopInstanceUid: p.sopInstanceUid,
    sopClassUid: p.sopClassUid,
    studyInstanceUid: p.studyInstanceUid,
  };
}

/**
 * Indexes a file already in the blob store (yyp reindex): the same parse and row writes as an
 * arriving instance, without writing the bytes again. A file whose SOP Instance UID is indexed
 * under another key answers `duplicate`.
 */
export async function indexStoredInstance(
  deps: IngestDeps,
  input: { bucketId: string; blobKey: string; bytes: Uint8Array },
): Promise<IngestResult> {
  const p = parseInstance(input.bytes);
  const written = await writerFor(deps.db, deps.clock, deps.syncCommit ?? false)
    .submit(
      { bucketId: input.bucketId, p, blobKey: input.blobKey, size: input.bytes.length, source: 'reindex' },
      Promise.resolve(),
    )
    .catch((err: unknown) => {
      throw refusedValue(err);
    });
  return resultOf(written, p);
}
