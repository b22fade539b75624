import type { AccountRow } from '../../db/schema.js';
import { bucketsWith } from '../../platform/access.js';
import { writeAudit, type AuditContext, type AuditEntry } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { liveExamsOfStudy } from './dicomweb.store.js';
import type { Query } from './qido-query.js';

/** An exam a DICOMweb answer disclosed. */
export interface AuditedExam {
  id: string;
  bucketId: string;
  patientId: string;
}

/** What one STOW-RS request did, for its audit row. */
export interface StowSummary {
  stored: number;
  duplicates: number;
  failed: number;
  /** HTTP status of the answer, or null when reading the body failed part way */
  status: number | null;
  /** study UID → exam id of every instance stored (or already stored) */
  studies: Map<string, string>;
}

/**
 * Viewer reads (metadata, one instance, frames, bulk data) of one study by one caller from one
 * address are audited once per window: a viewer asks for hundreds of frames per study, and one
 * row per frame would bury everything else in the log.
 */
export const READ_AUDIT_WINDOW_MS = 10 * 60_000;
/** Open windows kept; past this the oldest are forgotten (their next read writes a row again). */
const READ_WINDOWS_MAX = 20_000;

/**
 * QIDO-RS query keys whose values go into the audit row: paging, UIDs, dates and modalities.
 * Patient attributes (name, ID, accession number, descriptions, any other key) are recorded by
 * name only, as the API's study-list audit records no filter values.
 */
const RECORDED_VALUES = new Set(
  [
    'limit',
    'offset',
    'includefield',
    'fuzzymatching',
    'StudyInstanceUID',
    '0020000D',
    'SeriesInstanceUID',
    '0020000E',
    'SOPInstanceUID',
    '00080018',
    'StudyDate',
    '00080020',
    'Modality',
    '00080060',
    'ModalitiesInStudy',
    '00080061',
    'SeriesNumber',
    '00200011',
    'InstanceNumber',
    '00200013',
  ].map((k) => k.toLowerCase()),
);
const QUERY_KEYS_MAX = 32;
const QUERY_VALUE_MAX = 128;
const WITHHELD = '(withheld)';

/** The query as audited: keys, and the values of non-patient keys, bounded in size. */
export function auditedQuery(q: Query): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(q).slice(0, QUERY_KEYS_MAX)) {
    const value = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).slice(0, QUERY_VALUE_MAX);
    out[key.slice(0, 64)] = RECORDED_VALUES.has(key.toLowerCase()) ? value : WITHHELD;
  }
  return out;
}

/** The columns that name the exams of a row: organization and patient when there is only one. */
function examColumns(found: AuditedExam[]): Partial<AuditEntry> & { details: Record<string, unknown> } {
  const bucketIds = [...new Set(found.map((e) => e.bucketId))];
  return {
    targetType: 'exam',
    ...(bucketIds.length === 1 ? { bucketId: bucketIds[0]! } : {}),
    ...(found.length === 1 ? { targetId: found[0]!.id, patientId: found[0]!.patientId } : {}),
    details: { examIds: found.map((e) => e.id), ...(bucketIds.length > 1 ? { bucketIds } : {}) },
  };
}

/** Distinct exams of rows, in first-seen order. */
export function distinctExams(rows: AuditedExam[]): AuditedExam[] {
  const seen = new Map<string, AuditedExam>();
  for (const r of rows) if (!seen.has(r.id)) seen.set(r.id, { id: r.id, bucketId: r.bucketId, patientId: r.patientId });
  return [...seen.values()];
}

/**
 * PHI audit rows of DICOMweb (issue 19 §8), as the API writes them for its own reads:
 * - STOW-RS: one row per request (dicomweb.stow), with the studies and exams it touched and its counts;
 * - QIDO-RS: one row per search (dicomweb.search), with the query (patient values withheld), the
 *   number of results and the exams they belong to;
 * - WADO-RS retrieval of a whole study or series (a copy of its files): one row per request
 *   (dicomweb.retrieve);
 * - WADO-RS metadata, single instances, frames and bulk data: one row per caller, address and
 *   study per READ_AUDIT_WINDOW_MS (dicomweb.read), written by the first read of the window.
 * Every row is committed before the answer that it records is sent.
 */
export class DicomWebAudit {
  /** caller|address|study → when its window opened, and its row's write */
  private readonly windows = new Map<string, { opened: number; written: Promise<void> }>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async stow(actor: AccountRow, ctx: AuditContext, bucketId: string, s: StowSummary): Promise<void> {
    const examIds = [...new Set(s.studies.values())];
    await writeAudit(this.db, ctx, {
      action: 'dicomweb.stow',
      outcome: s.status === null ? 'failure' : s.stored + s.duplicates > 0 ? 'success' : 'failure',
      category: 'phi',
      actorId: actor.id,
      actorUsername: actor.username,
      bucketId,
      targetType: 'exam',
      ...(examIds.length === 1 ? { targetId: examIds[0]! } : {}),
      details: {
        status: s.status,
        stored: s.stored,
        duplicates: s.duplicates,
        failed: s.failed,
        studies: [...s.studies].map(([studyUid, examId]) => ({ studyUid, examId })),
      },
    });
  }

  async search(
    actor: AccountRow,
    ctx: AuditContext,
    level: 'studies' | 'series' | 'instances',
    q: Query,
    path: { study?: string | undefined; series?: string | undefined },
    results: number,
    found: AuditedExam[],
  ): Promise<void> {
    await this.writeRead(actor, ctx, 'dicomweb.search', distinctExams(found), {
      level,
      ...(path.study ? { studyUid: path.study } : {}),
      ...(path.series ? { seriesUid: path.series } : {}),
      query: auditedQuery(q),
      results,
    });
  }

  /** A whole study or series retrieved: one row per request. */
  async retrieve(actor: AccountRow, ctx: AuditContext, study: string, series?: string): Promise<void> {
    await this.writeRead(actor, ctx, 'dicomweb.retrieve', await this.examsOfStudy(actor.id, study), {
      studyUid: study,
      ...(series ? { seriesUid: series } : {}),
    });
  }

  /**
   * A viewer read of a study (metadata, an instance, frames, bulk data): the first of its window
   * writes the row and every read of the window waits for it; later ones cost a map lookup.
   */
  read(
    actor: AccountRow,
    ctx: AuditContext,
    kind: 'metadata' | 'instance' | 'frames' | 'bulkdata' | 'rendered',
    study: string,
    series?: string,
    instance?: string,
  ): Promise<void> {
    const key = `${actor.id}|${ctx.ip ?? ''}|${study}`;
    const now = this.clock.now().getTime();
    const open = this.windows.get(key);
    if (open && now - open.opened < READ_AUDIT_WINDOW_MS) return open.written;
    this.windows.delete(key);
    this.forgetClosed(now);
    const written = (async () => {
      await this.writeRead(actor, ctx, 'dicomweb.read', await this.examsOfStudy(actor.id, study), {
        studyUid: study,
        first: { kind, ...(series ? { seriesUid: series } : {}), ...(instance ? { sopInstanceUid: instance } : {}) },
        windowMinutes: READ_AUDIT_WINDOW_MS / 60_000,
      });
    })();
    const entry = { opened: now, written };
    this.windows.set(key, entry);
    // A row that failed is not a window: the next read tries again.
    written.catch(() => {
      if (this.windows.get(key) === entry) this.windows.delete(key);
    });
    return written;
  }

  /** A successful read's PHI row, naming the exams it disclosed (`details` first, then theirs). */
  private async writeRead(
    actor: AccountRow,
    ctx: AuditContext,
    action: 'dicomweb.search' | 'dicomweb.retrieve' | 'dicomweb.read',
    found: AuditedExam[],
    details: Record<string, unknown>,
  ): Promise<void> {
    const cols = examColumns(found);
    await writeAudit(this.db, ctx, {
      action,
      outcome: 'success',
      category: 'phi',
      actorId: actor.id,
      actorUsername: actor.username,
      ...cols,
      details: { ...details, ...cols.details },
    });
  }

  /** Windows are kept in the order they opened: the closed ones are at the front. */
  private forgetClosed(now: number): void {
    for (const [key, w] of this.windows) {
      if (now - w.opened < READ_AUDIT_WINDOW_MS && this.windows.size < READ_WINDOWS_MAX) break;
      this.windows.delete(key);
    }
  }

  /** The live exams of a study UID in the organizations where the caller holds exam_get. */
  private async examsOfStudy(accountId: string, studyUid: string): Promise<AuditedExam[]> {
    const scope = await bucketsWith(this.db, accountId, 'exam_get');
    if (scope.length === 0) return [];
    return liveExamsOfStudy(this.db, studyUid, scope);
  }
}
