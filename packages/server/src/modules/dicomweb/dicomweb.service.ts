import type { Readable } from 'node:stream';
import { DicomError } from '../../dicom/parse.js';
import type { DicomJson } from '../../dicom/json-model.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Db } from '../../platform/db.js';
import { type ArchiveService, IngestRefused } from '../archive/index.js';
import type { StowSummary } from './dicomweb.audit.js';
import { DicomWebFrames } from './dicomweb.frames.js';
import { DicomWebRetrieval } from './dicomweb.retrieve.js';
import { readScope, type ReadScope } from './dicomweb.scope.js';
import { DicomWebSearch, type SearchPage } from './dicomweb.search.js';
import { seriesUidsById } from './dicomweb.store.js';
import type { Frame, FrameSource } from './frame-source.js';
import type { ExamInstance, StoredFile, ViewerFrameRow } from './frames.store.js';
import type { Query } from './qido-query.js';

export type { ReadScope } from './dicomweb.scope.js';
export type { Page, SearchPage } from './dicomweb.search.js';

export interface StowOutcome {
  status: number;
  body: Record<string, unknown>;
}

/** STOW-RS parts in flight at once. */
const STOW_CONCURRENCY = 16;

type StowPartOutcome = {
  ok?: Record<string, unknown>;
  failed?: Record<string, unknown>;
  /** the instance is in the archive (for the audit row and its Retrieve URL) */
  stored?: { studyUid: string; examId: string; duplicate: boolean; seriesId: string };
};

/** What a STOW-RS request did, for its audit row. */
function stowSummary(outcomes: StowPartOutcome[], status: number | null): StowSummary {
  const studies = new Map<string, string>();
  let stored = 0;
  let duplicates = 0;
  for (const o of outcomes) {
    if (!o.stored) continue;
    studies.set(o.stored.studyUid, o.stored.examId);
    if (o.stored.duplicate) duplicates++;
    else stored++;
  }
  return { stored, duplicates, failed: outcomes.filter((o) => o.failed).length, status, studies };
}

/**
 * STOW-RS, QIDO-RS and WADO-RS over the archive, scoped to what the caller may see: STOW-RS here,
 * QIDO-RS in dicomweb.search.ts, retrieval, metadata and bulk data in dicomweb.retrieve.ts,
 * frames in dicomweb.frames.ts. Routes and the viewer call this one object.
 */
export class DicomWebService {
  private readonly search: DicomWebSearch;
  private readonly retrieval: DicomWebRetrieval;
  private readonly frameReader: DicomWebFrames;

  constructor(
    private readonly db: Db,
    blobs: BlobStore,
    private readonly archive: ArchiveService,
  ) {
    this.search = new DicomWebSearch(db, blobs);
    this.retrieval = new DicomWebRetrieval(db, blobs);
    this.frameReader = new DicomWebFrames(db, blobs);
    this.frameSource = this.frameReader.frameSource;
  }

  /** Frames of stored files, with the layouts of those read before (frame-source.ts). */
  readonly frameSource: FrameSource;

  /** The caller's ReadScope, from the scope its authentication loaded (no query when remembered). */
  readScope(caller: { id: string }): Promise<ReadScope> {
    return readScope(this.db, caller);
  }

  /**
   * STOW-RS of `parts`, ingested as they arrive (a streamed request body), STOW_CONCURRENCY at a
   * time: their blob writes overlap and their rows share transactions (the ingest's group
   * commit); the next part is read only when one of them is done. The answer lists them in
   * request order. If reading the parts fails (a broken or oversized body), the parts already
   * taken are finished (each instance is stored whole or not at all) and the failure is thrown.
   * `audit` is told what the request did, once, before the answer or the failure.
   */
  async store(
    bucketId: string,
    parts: AsyncIterable<Buffer> | Iterable<Buffer>,
    base: string,
    studyUid?: string,
    audit?: (summary: StowSummary) => Promise<void>,
  ): Promise<StowOutcome> {
    const pending: Promise<StowPartOutcome>[] = [];
    const running = new Set<Promise<unknown>>();
    try {
      for await (const bytes of parts) {
        const outcome = this.storePart(bucketId, bytes, base, studyUid);
        pending.push(outcome);
        const done: Promise<unknown> = outcome.finally(() => running.delete(done));
        running.add(done);
        if (running.size >= STOW_CONCURRENCY) await Promise.race(running);
      }
    } catch (err) {
      const taken = await Promise.all(pending);
      if (taken.length > 0) await audit?.(stowSummary(taken, null));
      throw err;
    }
    const outcomes = await Promise.all(pending);
    await this.instanceUrls(outcomes, base);
    const ok = outcomes.flatMap((o) => (o.ok ? [o.ok] : []));
    const failed = outcomes.flatMap((o) => (o.failed ? [o.failed] : []));
    const body: Record<string, unknown> = {};
    // The study's Retrieve URL (PS3.18 10.5.3): the one the request named, or the one study stored.
    const studies = new Set(outcomes.flatMap((o) => (o.ok && o.stored ? [o.stored.studyUid] : [])));
    const study = studyUid ?? (studies.size === 1 ? [...studies][0] : undefined);
    if (study && ok.length) body['00081190'] = { vr: 'UR', Value: [`${base}/studies/${study}`] };
    if (ok.length) body['00081199'] = { vr: 'SQ', Value: ok };
    if (failed.length) body['00081198'] = { vr: 'SQ', Value: failed };
    const status = failed.length === 0 ? 200 : ok.length === 0 ? 409 : 202;
    await audit?.(stowSummary(outcomes, status));
    return { status, body };
  }

  /**
   * Each stored instance's Retrieve URL in the answer is the instance's own (PS3.18 10.5.3), its
   * series read in one query for the request.
   */
  private async instanceUrls(outcomes: StowPartOutcome[], base: string): Promise<void> {
    const ids = [...new Set(outcomes.flatMap((o) => (o.ok && o.stored ? [o.stored.seriesId] : [])))];
    if (ids.length === 0) return;
    const uid = await seriesUidsById(this.db, ids);
    for (const o of outcomes) {
      const seriesUid = o.ok && o.stored ? uid.get(o.stored.seriesId) : undefined;
      if (!o.ok || !o.stored || !seriesUid) continue;
      const sop = (o.ok['00081155'] as { Value: string[] }).Value[0];
      o.ok['00081190'] = {
        vr: 'UR',
        Value: [`${base}/studies/${o.stored.studyUid}/series/${seriesUid}/instances/${sop}`],
      };
    }
  }

  /** One STOW-RS part: stored, or the reason it was not (never throws). */
  private async storePart(bucketId: string, bytes: Buffer, base: string, studyUid?: string): Promise<StowPartOutcome> {
    try {
      const r = await this.archive.ingest(bucketId, bytes, 'stow');
      const stored = { studyUid: r.studyInstanceUid, examId: r.examId, duplicate: r.duplicate, seriesId: r.seriesId };
      if (studyUid && r.studyInstanceUid !== studyUid) {
        return {
          stored,
          failed: {
            '00081150': { vr: 'UI', Value: [r.sopClassUid] },
            '00081155': { vr: 'UI', Value: [r.sopInstanceUid] },
            '00081197': { vr: 'US', Value: [0xa900] },
          },
        };
      }
      return {
        stored,
        ok: {
          '00081150': { vr: 'UI', Value: [r.sopClassUid] },
          '00081155': { vr: 'UI', Value: [r.sopInstanceUid] },
          '00081190': { vr: 'UR', Value: [`${base}/studies/${r.studyInstanceUid}`] },
        },
      };
    } catch (err) {
      // 0xC000 "cannot understand" for unreadable instances, 0xA700 "out of resources" when the
      // organization's plan refuses it, 0x0110 processing failure otherwise.
      const reason = err instanceof DicomError ? 0xc000 : err instanceof IngestRefused ? 0xa700 : 0x0110;
      return { failed: { '00081197': { vr: 'US', Value: [reason] } } };
    }
  }

  // QIDO-RS (dicomweb.search.ts)

  studies(caller: { id: string }, q: Query, base: string): Promise<SearchPage> {
    return this.search.studies(caller, q, base);
  }

  series(caller: { id: string }, q: Query, base: string, studyUid?: string): Promise<SearchPage> {
    return this.search.series(caller, q, base, studyUid);
  }

  instances(
    caller: { id: string },
    q: Query,
    base: string,
    studyUid?: string,
    seriesUid?: string,
  ): Promise<SearchPage> {
    return this.search.instances(caller, q, base, studyUid, seriesUid);
  }

  // WADO-RS retrieval, metadata and bulk data (dicomweb.retrieve.ts)

  files(caller: { id: string }, studyUid: string, seriesUid?: string, sopUid?: string) {
    return this.retrieval.files(caller, studyUid, seriesUid, sopUid);
  }

  metadata(caller: { id: string }, base: string, studyUid: string, seriesUid?: string, sopUid?: string) {
    return this.retrieval.metadata(caller, base, studyUid, seriesUid, sopUid);
  }

  metadataIn(...args: Parameters<DicomWebRetrieval['metadataIn']>): Promise<DicomJson[]> {
    return this.retrieval.metadataIn(...args);
  }

  bulkData(caller: { id: string }, studyUid: string, seriesUid: string, sopUid: string, tag: string) {
    return this.retrieval.bulkData(caller, studyUid, seriesUid, sopUid, tag);
  }

  bulkDataIn(...args: Parameters<DicomWebRetrieval['bulkDataIn']>): Promise<Uint8Array> {
    return this.retrieval.bulkDataIn(...args);
  }

  stream(blobKey: string): Readable {
    return this.retrieval.stream(blobKey);
  }

  read(blobKey: string): Promise<Buffer> {
    return this.retrieval.read(blobKey);
  }

  transcoded(blobKey: string, transferSyntaxUid: string): Promise<Uint8Array> {
    return this.retrieval.transcoded(blobKey, transferSyntaxUid);
  }

  // WADO-RS frames (dicomweb.frames.ts)

  frames(...args: Parameters<DicomWebFrames['frames']>) {
    return this.frameReader.frames(...args);
  }

  instanceFileOf(...args: Parameters<DicomWebFrames['instanceFileOf']>) {
    return this.frameReader.instanceFileOf(...args);
  }

  framesIn(scope: string[], studyUid: string, seriesUid: string, sopUid: string, numbers: number[]) {
    return this.frameReader.framesIn(scope, studyUid, seriesUid, sopUid, numbers);
  }

  readFrames(file: StoredFile, numbers: number[]): Promise<Frame[]> {
    return this.frameReader.readFrames(file, numbers);
  }

  viewerFrameFile(accountId: string, x: ExamInstance): Promise<ViewerFrameRow | undefined> {
    return this.frameReader.viewerFrameFile(accountId, x);
  }

  examInstanceFile(x: ExamInstance): Promise<StoredFile | undefined> {
    return this.frameReader.examInstanceFile(x);
  }
}
