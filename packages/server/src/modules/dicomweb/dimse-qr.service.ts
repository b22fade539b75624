import type { QrCaller, RetrieveInstance, RetrieveOutcome } from '../../dicom/dimse-qr.js';
import { FAILURE_REASON, type CommitmentRequest, type CommitmentResult } from '../../dicom/commitment.js';
import { QrIdentifierError, type QrMatch, type QrQuery, type QrRetrieve } from '../../dicom/qr.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Db } from '../../platform/db.js';
import { auditedQuery, distinctExams, type AuditedExam } from './dicomweb.audit.js';
import { parseSearchQuery, QueryRefused, type Level, type Query, type SearchQuery } from './qido-query.js';
import { searchInstances, searchPatients, searchSeries, searchStudies } from './qido.store.js';

const UID = /^[0-9]+(\.[0-9]+)*$/;

/** A C-FIND answers at most this many matches (the rest are not sent; the audit row says so). */
export const DIMSE_FIND_LIMIT = 10_000;

const LEVEL: Record<Exclude<QrQuery['level'], 'PATIENT'>, Level> = {
  STUDY: 'study',
  SERIES: 'series',
  IMAGE: 'instance',
};

type Row = Awaited<ReturnType<typeof searchInstances>>[number];
const str = (v: string | null | undefined) => v ?? undefined;
const int = (v: number | null | undefined) => (v === null || v === undefined ? undefined : String(v));

function studyMatch(e: Row['exam']): Record<string, string | undefined> {
  return {
    PatientName: e.patientName,
    PatientID: e.patientId,
    PatientBirthDate: e.patientDob,
    PatientSex: e.patientGender,
    StudyDate: e.studyDate,
    StudyTime: str(e.studyTime),
    AccessionNumber: e.accessionNumber,
    ModalitiesInStudy: e.modality,
    ReferringPhysicianName: str(e.referringPhysician),
    StudyDescription: str(e.studyDesc),
    StudyInstanceUID: e.storeUid,
    StudyID: str(e.studyId),
    NumberOfStudyRelatedSeries: int(e.seriesCount),
    NumberOfStudyRelatedInstances: int(e.instanceCount),
  };
}

function seriesMatch(s: Row['series'], e: Row['exam']): Record<string, string | undefined> {
  return {
    ...studyMatch(e),
    Modality: s.modality,
    SeriesDate: str(s.seriesDate),
    SeriesTime: str(s.seriesTime),
    SeriesDescription: str(s.description),
    BodyPartExamined: str(s.bodyPart),
    SeriesInstanceUID: s.seriesUid,
    SeriesNumber: int(s.seriesNumber),
    NumberOfSeriesRelatedInstances: int(s.instanceCount),
  };
}

function instanceMatch(r: Row): QrMatch {
  return {
    ...seriesMatch(r.series, r.exam),
    SOPClassUID: r.instance.sopClassUid,
    SOPInstanceUID: r.instance.sopInstanceUid,
    InstanceNumber: int(r.instance.instanceNumber),
    NumberOfFrames: int(r.instance.frames),
    Rows: int(r.instance.rows),
    Columns: int(r.instance.columns),
  };
}

const auditContext = (caller: QrCaller): AuditContext => ({
  ip: caller.remoteAddress?.replace(/^::ffff:/, '') ?? null,
  userAgent: 'dicom',
});

/**
 * Query/Retrieve over DIMSE (dicom/dimse-qr.ts) answered from the archive: a calling AE title
 * finds and retrieves the live exams of its own organization only, matched as QIDO-RS matches
 * (qido.store.ts) but with case (PS3.4 C.2.2.2; `caseInsensitivePn` turns that off for person
 * names and wildcards). Every query and retrieve writes a PHI audit row naming the AE title.
 */
export class DimseQueryRetrieve {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly opts: { caseInsensitivePn?: boolean } = {},
  ) {}

  async find(caller: QrCaller, query: QrQuery): Promise<QrMatch[]> {
    const search = this.search(query);
    const scope = [caller.bucketId];
    let matches: QrMatch[];
    let exams: AuditedExam[];
    if (query.level === 'PATIENT') {
      const rows = await searchPatients(this.db, scope, search);
      matches = rows.slice(0, DIMSE_FIND_LIMIT).map((p) => ({
        PatientName: p.patientName,
        PatientID: p.patientId,
        PatientBirthDate: p.patientDob,
        PatientSex: p.patientGender,
        NumberOfPatientRelatedStudies: String(p.studies),
        NumberOfPatientRelatedSeries: String(p.series),
        NumberOfPatientRelatedInstances: String(p.instances),
      }));
      exams = [];
    } else if (query.level === 'STUDY') {
      const rows = (await searchStudies(this.db, scope, search)).slice(0, DIMSE_FIND_LIMIT);
      matches = rows.map(studyMatch);
      exams = rows;
    } else if (query.level === 'SERIES') {
      const rows = (await searchSeries(this.db, scope, search)).slice(0, DIMSE_FIND_LIMIT);
      matches = rows.map((r) => seriesMatch(r.series, r.exam));
      exams = rows.map((r) => r.exam);
    } else {
      const rows = (await searchInstances(this.db, scope, search)).slice(0, DIMSE_FIND_LIMIT);
      matches = rows.map(instanceMatch);
      exams = rows.map((r) => r.exam);
    }
    const found = distinctExams(exams);
    await writeAudit(this.db, auditContext(caller), {
      action: 'dimse.find',
      outcome: 'success',
      category: 'phi',
      actorUsername: caller.callingAe,
      bucketId: caller.bucketId,
      targetType: query.level === 'PATIENT' ? 'patient' : 'exam',
      ...(found.length === 1 ? { targetId: found[0]!.id, patientId: found[0]!.patientId } : {}),
      details: {
        callingAe: caller.callingAe,
        model: query.model,
        level: query.level,
        query: auditedQuery(Object.fromEntries(query.matching)),
        results: matches.length,
        examIds: found.map((e) => e.id),
      },
    });
    return matches;
  }

  /** The matching conditions of a C-FIND, read as a QIDO-RS query of its level (a malformed value is 0xA900). */
  private search(query: QrQuery): SearchQuery {
    const q: Query = Object.fromEntries(query.matching);
    try {
      const search = parseSearchQuery(query.level === 'PATIENT' ? 'study' : LEVEL[query.level], q);
      return { ...search, limit: DIMSE_FIND_LIMIT, offset: 0, caseSensitive: this.opts.caseInsensitivePn !== true };
    } catch (err) {
      if (err instanceof QueryRefused) throw new QrIdentifierError(err.message);
      throw err;
    }
  }

  /** The live instances a retrieve names within the caller's organization, in series and instance order. */
  async instances(caller: QrCaller, request: QrRetrieve): Promise<RetrieveInstance[]> {
    const q: Query = {};
    if (request.patientId) q.PatientID = request.patientId;
    if (request.studyUids.length) q.StudyInstanceUID = request.studyUids.join('\\');
    if (request.seriesUids.length) q.SeriesInstanceUID = request.seriesUids.join('\\');
    if (request.sopInstanceUids.length) q.SOPInstanceUID = request.sopInstanceUids.join('\\');
    const rows = await searchInstances(this.db, [caller.bucketId], q, undefined, undefined, true);
    return rows.map((r) => ({
      sopClassUid: r.instance.sopClassUid,
      sopInstanceUid: r.instance.sopInstanceUid,
      transferSyntaxUid: r.instance.transferSyntaxUid,
      blobKey: r.instance.blobKey,
      examId: r.exam.id,
    }));
  }

  /**
   * Storage commitment: each instance asked about is committed when a live exam of the caller's
   * organization holds it (rows exist only once the file is durably stored), under the SOP class
   * asked; otherwise it failed: no such instance (0x0112) or another SOP class (0x0119).
   */
  async commitment(caller: QrCaller, request: CommitmentRequest): Promise<CommitmentResult> {
    const valid = [...new Set(request.refs.map((r) => r.sopInstanceUid))].filter((u) => UID.test(u) && u.length <= 64);
    const stored = new Map<string, string>();
    for (let at = 0; at < valid.length; at += 1000) {
      const q: Query = { SOPInstanceUID: valid.slice(at, at + 1000).join('\\') };
      for (const r of await searchInstances(this.db, [caller.bucketId], q, undefined, undefined, true)) {
        stored.set(r.instance.sopInstanceUid, r.instance.sopClassUid);
      }
    }
    const result: CommitmentResult = { transactionUid: request.transactionUid, committed: [], failed: [] };
    for (const ref of request.refs) {
      const sopClass = stored.get(ref.sopInstanceUid);
      if (sopClass === undefined) result.failed.push({ ...ref, reason: FAILURE_REASON.noSuchInstance });
      else if (sopClass !== ref.sopClassUid) {
        result.failed.push({ ...ref, reason: FAILURE_REASON.classInstanceConflict });
      } else result.committed.push(ref);
    }
    return result;
  }

  /** The audit row of a storage commitment (dimse.commitment): how many committed, failed, how it was reported. */
  async committed(caller: QrCaller, result: CommitmentResult, delivery: string): Promise<void> {
    await writeAudit(this.db, auditContext(caller), {
      action: 'dimse.commitment',
      outcome: delivery === 'undelivered' ? 'failure' : 'success',
      category: 'operation',
      actorUsername: caller.callingAe,
      bucketId: caller.bucketId,
      details: {
        callingAe: caller.callingAe,
        transactionUid: result.transactionUid,
        committed: result.committed.length,
        failed: result.failed.length,
        delivery,
      },
    });
  }

  async read(instance: RetrieveInstance): Promise<Buffer> {
    return Buffer.from(await this.blobs.get(instance.blobKey));
  }

  /** The audit row of a C-MOVE or C-GET (dimse.retrieve): what was asked, where it went, how it ended. */
  async retrieved(caller: QrCaller, outcome: RetrieveOutcome): Promise<void> {
    const examIds = [...new Set(outcome.instances.map((i) => i.examId))];
    const { request } = outcome;
    await writeAudit(this.db, auditContext(caller), {
      action: 'dimse.retrieve',
      outcome:
        outcome.refused || (outcome.instances.length > 0 && outcome.completed + outcome.warning === 0)
          ? 'failure'
          : 'success',
      category: 'phi',
      actorUsername: caller.callingAe,
      bucketId: caller.bucketId,
      targetType: 'exam',
      ...(examIds.length === 1 ? { targetId: examIds[0]! } : {}),
      details: {
        callingAe: caller.callingAe,
        operation: outcome.operation,
        ...(outcome.destination !== undefined ? { destination: outcome.destination } : {}),
        level: request.level,
        studyUids: request.studyUids,
        seriesUids: request.seriesUids,
        instances: outcome.instances.length,
        completed: outcome.completed,
        failed: outcome.failed,
        warning: outcome.warning,
        cancelled: outcome.cancelled,
        ...(outcome.refused ? { refused: outcome.refused } : {}),
        examIds,
      },
    });
  }
}
