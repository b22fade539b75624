import type { Readable } from 'node:stream';
import { DicomError } from '../../dicom/parse.js';
import { servedInstance } from '../../dicom/preamble.js';
import { callerScope } from '../../platform/access.js';
import { effectiveActions, examMasked, maskedFilesRefused } from '../../platform/authz.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { type ArchiveService, IngestRefused } from '../archive/index.js';
import { instanceMetadata, topLevelValue, vrOfTag, type DicomJson } from '../../dicom/json-model.js';
import { instanceJson, seriesJson, studyJson } from './json.js';
import { withExamValues } from './exam-values.js';
import { MASKED_TAGS, maskMetadata } from '../viewing/index.js';
import { attributeLevel, type AttributeLevel } from './attribute-levels.js';
import { inArray } from 'drizzle-orm';
import { instances as instancesTable, series as seriesTable, type exams as examsTable } from '../../db/schema.js';
import { includeFields, searchInstances, searchSeries, searchStudies, type Query } from './qido.js';
import { parseSearchQuery, type SearchQuery } from './qido-query.js';
import { distinctExams, type AuditedExam, type StowSummary } from './dicomweb.audit.js';
import { FrameSource, type Frame } from './frame-source.js';
import {
  examInstanceFile,
  instanceFile,
  viewerFrameFile,
  type ExamInstance,
  type StoredFile,
  type ViewerFrameRow,
} from './frames.store.js';

type ExamRow = typeof examsTable.$inferSelect;

/**
 * The organizations where a caller reads exams (exam_get) and, for an exam of one of them,
 * whether its private fields are masked for the caller (contracts privateFieldsMasked through
 * authz examMasked: the group's enablePrivacy, view_privacy, the exam's confidential flag).
 */
export interface ReadScope {
  buckets: string[];
  masked: (exam: Pick<ExamRow, 'bucketId' | 'isPrivacy'>) => boolean;
}

/** An answer's DICOM JSON as the caller may see it: masked as the viewer masks it (viewing/mask.ts). */
function shown(json: DicomJson, exam: ExamRow, scope: ReadScope): DicomJson {
  return scope.masked(exam) ? (maskMetadata(json, exam.patientName) as DicomJson) : json;
}

export interface StowOutcome {
  status: number;
  body: Record<string, unknown>;
}

export interface Page<T> {
  items: T[];
  /** more results exist beyond limit (PS3.18: answered with a Warning header) */
  truncated: boolean;
}

/**
 * A QIDO-RS answer, the Warning header values it carries (qido-query.ts) and, for its audit row,
 * the exams its results belong to.
 */
export type SearchPage = Page<DicomJson> & { exams: AuditedExam[]; warnings: string[] };

function page<R, T>(rows: R[], { limit }: SearchQuery, map: (r: R) => T): Page<T> {
  return { items: rows.slice(0, limit).map(map), truncated: rows.length > limit };
}

const maskedValue = () =>
  new AppError('InsufficientPermissions', "This value is one of the patient's private fields, masked for you", {
    action: 'view_privacy',
  });

/** STOW-RS parts in flight at once. */
const STOW_CONCURRENCY = 16;

type StowPartOutcome = {
  ok?: Record<string, unknown>;
  failed?: Record<string, unknown>;
  /** the instance is in the archive (for the audit row and its Retrieve URL) */
  stored?: { studyUid: string; examId: string; duplicate: boolean; seriesId: string };
};

/** fn over items, at most `limit` at a time; results in input order. */
async function mapConcurrent<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const n = next++;
      out[n] = await fn(items[n]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The distinct exams of a search page's results. */
function examsOf(result: Page<{ exam: AuditedExam }>): AuditedExam[] {
  return distinctExams(result.items.map((r) => r.exam));
}

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

/** STOW-RS, QIDO-RS and WADO-RS over the archive, scoped to what the caller may see. */
export class DicomWebService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly archive: ArchiveService,
  ) {
    this.frameSource = new FrameSource(blobs);
  }

  /** Frames of stored files, with the layouts of those read before (frame-source.ts). */
  readonly frameSource: FrameSource;

  /** The caller's ReadScope, from the scope its authentication loaded (no query when remembered). */
  async readScope(caller: { id: string }): Promise<ReadScope> {
    const { access, facts } = await callerScope(this.db, caller);
    const readable = new Map(facts.filter((b) => effectiveActions(access, b).has('exam_get')).map((b) => [b.id, b]));
    return {
      buckets: [...readable.keys()],
      masked: (exam) => {
        const bucket = readable.get(exam.bucketId);
        return !bucket || examMasked(access, bucket, exam);
      },
    };
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
    const rows = await this.db
      .select({ id: seriesTable.id, uid: seriesTable.seriesUid })
      .from(seriesTable)
      .where(inArray(seriesTable.id, ids));
    const uid = new Map(rows.map((r) => [r.id, r.uid]));
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

  async studies(caller: { id: string }, q: Query, base: string): Promise<SearchPage> {
    const search = parseSearchQuery('study', q);
    const fields = includeFields(q);
    const scope = await this.readScope(caller);
    const result = page(await searchStudies(this.db, scope.buckets, search), search, (e) => ({
      json: studyJson(e, base),
      id: e.id,
      exam: e,
    }));
    const keys = await this.firstBlobs(
      'exam',
      fields,
      result.items.map((r) => r.id),
    );
    return {
      ...(await this.withFields(result, fields, 'study', scope, (r) => keys.get(r.id))),
      exams: examsOf(result),
      warnings: search.warnings,
    };
  }

  async series(caller: { id: string }, q: Query, base: string, studyUid?: string): Promise<SearchPage> {
    const search = parseSearchQuery('series', q);
    const fields = includeFields(q);
    const scope = await this.readScope(caller);
    const rows = await searchSeries(this.db, scope.buckets, search, studyUid);
    if (studyUid && rows.length === 0) await this.requireStudy(scope.buckets, studyUid);
    const result = page(rows, search, (r) => ({
      json: seriesJson(r.series, r.exam, base),
      id: r.series.id,
      exam: r.exam,
    }));
    const keys = await this.firstBlobs(
      'series',
      fields,
      result.items.map((r) => r.id),
    );
    return {
      ...(await this.withFields(result, fields, 'series', scope, (r) => keys.get(r.id))),
      exams: examsOf(result),
      warnings: search.warnings,
    };
  }

  async instances(
    caller: { id: string },
    q: Query,
    base: string,
    studyUid?: string,
    seriesUid?: string,
  ): Promise<SearchPage> {
    const search = parseSearchQuery('instance', q);
    const fields = includeFields(q);
    const scope = await this.readScope(caller);
    const rows = await searchInstances(this.db, scope.buckets, search, studyUid, seriesUid);
    if (studyUid && rows.length === 0) await this.requireStudy(scope.buckets, studyUid);
    const result = page(rows, search, (r) => ({
      json: instanceJson(r.instance, r.series, r.exam, base),
      id: r.instance.id,
      blobKey: r.instance.blobKey,
      exam: r.exam,
    }));
    return {
      ...(await this.withFields(result, fields, 'instance', scope, (r) => r.blobKey)),
      exams: examsOf(result),
      warnings: search.warnings,
    };
  }

  /** The first stored instance of each exam or series (by instance number): where extra fields are read. */
  private async firstBlobs(
    level: 'exam' | 'series',
    fields: 'all' | string[],
    ids: string[],
  ): Promise<Map<string, string>> {
    // Only includefield reads headers: a plain search costs no extra query.
    if (ids.length === 0 || (fields !== 'all' && fields.length === 0)) return new Map();
    const column = level === 'exam' ? instancesTable.examId : instancesTable.seriesId;
    const rows = await this.db
      .selectDistinctOn([column], { id: column, blobKey: instancesTable.blobKey })
      .from(instancesTable)
      .where(inArray(column, ids))
      .orderBy(column, instancesTable.instanceNumber, instancesTable.createdAt);
    return new Map(rows.map((r) => [r.id, r.blobKey]));
  }

  /**
   * Attributes asked for with includefield that the archive does not keep in its rows are read
   * from the header of a representative stored instance (the study's or series' first); binary
   * values and pixel data are left out. An attribute the instance lacks is answered empty. Each
   * answer is masked where the caller sees its exam masked (the read values included).
   */
  private async withFields<R extends { json: DicomJson; exam: ExamRow }>(
    result: Page<R>,
    fields: 'all' | string[],
    level: AttributeLevel,
    scope: ReadScope,
    blobKey: (r: R) => string | undefined,
  ): Promise<Page<DicomJson>> {
    const wanted = (r: R) => (fields === 'all' ? true : fields.some((tag) => !(tag in r.json)));
    const out = await mapConcurrent(result.items, 8, async (r) => {
      const key = blobKey(r);
      if (!wanted(r) || !key) return shown(r.json, r.exam, scope);
      const header = instanceMetadata(await this.blobs.get(key), () => '');
      const json = { ...r.json };
      // 'all' is all the header holds of the level searched (attribute-levels.ts).
      const tags =
        fields === 'all'
          ? Object.keys(header).filter((tag) => level === 'instance' || attributeLevel(tag) === level)
          : fields;
      for (const tag of tags) {
        if (tag in json || tag === '7FE00010') continue;
        const attr = header[tag];
        if (attr && attr.BulkDataURI === undefined) json[tag] = attr;
        else if (fields !== 'all') json[tag] = { vr: attr?.vr ?? vrOfTag(tag) };
      }
      // Patient attributes read from the file answer as the (possibly corrected) exam says.
      return shown(withExamValues(json, r.exam, true), r.exam, scope);
    });
    return { items: out, truncated: result.truncated };
  }

  private async requireStudy(scope: string[], studyUid: string): Promise<void> {
    const found = await searchStudies(this.db, scope, { StudyInstanceUID: studyUid, limit: '1' });
    if (found.length === 0) throw errors.notFound('Study');
  }

  /**
   * The stored files of a study, a series or one instance, in series and instance order. A file
   * carries the patient's private fields as sent and cannot be served partly masked: a caller who
   * sees any of its exams masked is refused (403) and reads the masked metadata and the frames.
   */
  async files(
    caller: { id: string },
    studyUid: string,
    seriesUid?: string,
    sopUid?: string,
  ): Promise<{ blobKey: string; size: number }[]> {
    const scope = await this.readScope(caller);
    const rows = await this.instanceRows(scope.buckets, studyUid, seriesUid, sopUid);
    if (rows.some((r) => scope.masked(r.exam))) throw maskedFilesRefused();
    return rows.map((r) => ({ blobKey: r.instance.blobKey, size: r.instance.size }));
  }

  /** The instances of a study, a series or one instance within the organizations; 404 if none. */
  private async instanceRows(scope: string[], studyUid: string, seriesUid?: string, sopUid?: string) {
    const rows = await searchInstances(
      this.db,
      scope,
      { ...(sopUid ? { SOPInstanceUID: sopUid } : {}) },
      studyUid,
      seriesUid,
      true,
    );
    if (rows.length === 0) throw errors.notFound(sopUid ? 'Instance' : seriesUid ? 'Series' : 'Study');
    return rows;
  }

  /** WADO-RS metadata of a study, series or instance. */
  async metadata(
    caller: { id: string },
    base: string,
    studyUid: string,
    seriesUid?: string,
    sopUid?: string,
  ): Promise<DicomJson[]> {
    const scope = await this.readScope(caller);
    return this.metadataIn(
      scope.buckets,
      (url, tagPath) => `${base}${url}/bulkdata/${tagPath}`,
      studyUid,
      seriesUid,
      sopUid,
      scope.masked,
    );
  }

  /**
   * Metadata within the given organizations. `bulk` names the BulkDataURI of a value from the
   * instance's path (/studies/…/instances/…) and the tag path; where `masked` says so for the
   * instance's exam, the private fields are masked as the viewer masks them (viewing/mask.ts).
   */
  async metadataIn(
    scope: string[],
    bulk: (instancePath: string, tagPath: string) => string,
    studyUid: string,
    seriesUid?: string,
    sopUid?: string,
    masked?: ReadScope['masked'],
  ): Promise<DicomJson[]> {
    const rows = await this.instanceRows(scope, studyUid, seriesUid, sopUid);
    return mapConcurrent(rows, 8, async (r) => {
      const instancePath = `/studies/${studyUid}/series/${r.series.seriesUid}/instances/${r.instance.sopInstanceUid}`;
      const json = instanceMetadata(await this.blobs.get(r.instance.blobKey), (tagPath) => bulk(instancePath, tagPath));
      // The exam record's corrections (upload wizard step 2) win over what the file was sent with.
      const values = withExamValues(json, r.exam);
      return masked?.(r.exam) ? (maskMetadata(values, r.exam.patientName) as DicomJson) : values;
    });
  }

  /**
   * The bytes of frames of one instance, 1-based, in the organizations where the caller holds
   * exam_get: read from the scope its authentication loaded (no query of its own), then one
   * prepared look-up of the instance's file (frames.store.ts) and the frames (frame-source.ts).
   */
  async frames(caller: { id: string }, studyUid: string, seriesUid: string, sopUid: string, numbers: number[]) {
    const { access, facts } = await callerScope(this.db, caller);
    const scope = facts.filter((b) => effectiveActions(access, b).has('exam_get')).map((b) => b.id);
    return this.framesIn(scope, studyUid, seriesUid, sopUid, numbers);
  }

  async framesIn(
    scope: string[],
    studyUid: string,
    seriesUid: string,
    sopUid: string,
    numbers: number[],
  ): Promise<Frame[]> {
    const file = await instanceFile(this.db, scope, studyUid, seriesUid, sopUid);
    if (!file) throw errors.notFound('Instance');
    return this.frameSource.read(file, numbers);
  }

  /** Frames of an instance file found by the viewer's own look-up (viewerFrameFile, examInstanceFile). */
  readFrames(file: StoredFile, numbers: number[]): Promise<Frame[]> {
    return this.frameSource.read(file, numbers);
  }

  /** The viewer path's account and the file of an instance of its exam, in one round trip. */
  viewerFrameFile(accountId: string, x: ExamInstance): Promise<ViewerFrameRow | undefined> {
    return viewerFrameFile(this.db, accountId, x);
  }

  /** The file of an instance of a share path's exam. */
  examInstanceFile(x: ExamInstance): Promise<StoredFile | undefined> {
    return examInstanceFile(this.db, x);
  }

  /**
   * A top-level value referenced by BulkDataURI. The value of any top-level element can be asked
   * for, so a caller who sees the exam masked is refused the ones the metadata masks.
   */
  async bulkData(
    caller: { id: string },
    studyUid: string,
    seriesUid: string,
    sopUid: string,
    tag: string,
  ): Promise<Uint8Array> {
    const scope = await this.readScope(caller);
    return this.bulkDataIn(scope.buckets, studyUid, seriesUid, sopUid, tag, scope.masked);
  }

  async bulkDataIn(
    scope: string[],
    studyUid: string,
    seriesUid: string,
    sopUid: string,
    tag: string,
    masked?: ReadScope['masked'],
  ) {
    const [row] = await this.instanceRows(scope, studyUid, seriesUid, sopUid);
    if (MASKED_TAGS.has(tag.toUpperCase()) && masked?.(row!.exam)) throw maskedValue();
    const bytes = await this.blobs.get(row!.instance.blobKey);
    const value = topLevelValue(bytes, tag);
    if (!value) throw errors.notFound('Bulk data');
    return value;
  }

  /** A stored instance file as served: its preamble zeroed (files stored before the ingest zeroed it keep theirs). */
  stream(blobKey: string): Readable {
    return servedInstance(this.blobs, blobKey);
  }
}
