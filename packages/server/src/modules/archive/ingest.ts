import { DicomError, parseInstance } from '../../dicom/parse.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import * as store from './archive.store.js';

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
  /** called once per new exam, after its first instance committed */
  onNewExam?: (examId: string, bucketId: string, source: IngestSource) => void;
}

/**
 * The one ingest pipeline every path uses (web, upload token, DIMSE, STOW-RS): parse and validate
 * the header, store the bytes (atomically), then upsert patient, exam, series and instance in one
 * transaction. A re-sent SOP Instance UID is stored once. Invalid input throws DicomError and
 * leaves nothing behind.
 */
export async function ingestInstance(
  deps: IngestDeps,
  input: { bucketId: string; bytes: Uint8Array; source: IngestSource },
): Promise<IngestResult> {
  const p = parseInstance(input.bytes);
  const existing = await store.findInstance(deps.db, input.bucketId, p.sopInstanceUid);
  const base = { sopInstanceUid: p.sopInstanceUid, sopClassUid: p.sopClassUid, studyInstanceUid: p.studyInstanceUid };
  if (existing) {
    return {
      ...base,
      examId: existing.examId,
      seriesId: existing.seriesId,
      instanceId: existing.id,
      duplicate: true,
      newExam: false,
    };
  }
  const blobKey = `dicom/${input.bucketId}/${p.studyInstanceUid}/${p.seriesInstanceUid}/${p.sopInstanceUid}.dcm`;
  await deps.blobs.put(blobKey, input.bytes);
  const now = deps.clock.now();
  try {
    const result = await deps.db.transaction(async (tx) => {
      const patientKeyId = await store.upsertPatient(tx, input.bucketId, p, now);
      const exam = await store.upsertExam(tx, input.bucketId, patientKeyId, p, input.source, now);
      const s = await store.upsertSeries(tx, exam.id, input.bucketId, p, now);
      const instanceId = await store.insertInstance(
        tx,
        { seriesId: s.id, examId: exam.id, bucketId: input.bucketId, blobKey, size: input.bytes.length },
        p,
        now,
      );
      if (!instanceId) return null; // a concurrent sender stored it first
      await store.countInstance(tx, exam.id, s.id, s.created, input.bytes.length, p.series.modality, now);
      return { ...base, examId: exam.id, seriesId: s.id, instanceId, duplicate: false, newExam: exam.created };
    });
    if (result) {
      if (result.newExam) deps.onNewExam?.(result.examId, input.bucketId, input.source);
      return result;
    }
  } catch (err) {
    // The rows did not commit: the blob must not outlive them (a concurrent duplicate keeps its own).
    if (!(await store.findInstance(deps.db, input.bucketId, p.sopInstanceUid))) await deps.blobs.delete(blobKey);
    throw err;
  }
  const again = await store.findInstance(deps.db, input.bucketId, p.sopInstanceUid);
  if (!again) throw new DicomError('instance vanished during a concurrent store', 'conflict');
  return {
    ...base,
    examId: again.examId,
    seriesId: again.seriesId,
    instanceId: again.id,
    duplicate: true,
    newExam: false,
  };
}
