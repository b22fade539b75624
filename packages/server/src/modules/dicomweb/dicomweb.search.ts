import type { ExamRow } from '../../db/schema.js';
import { instanceMetadata, vrOfTag, type DicomJson } from '../../dicom/json-model.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { attributeLevel, type AttributeLevel } from './attribute-levels.js';
import { distinctExams, type AuditedExam } from './dicomweb.audit.js';
import { mapConcurrent, readScope, shown, type ReadScope } from './dicomweb.scope.js';
import { withExamValues } from './exam-values.js';
import { instanceJson, seriesJson, studyJson } from './json.js';
import { includeFields, parseSearchQuery, type Query, type SearchQuery } from './qido-query.js';
import { firstBlobs, searchInstances, searchSeries, searchStudies, type ExamScope } from './qido.store.js';

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

/** The distinct exams of a search page's results. */
function examsOf(result: Page<{ exam: AuditedExam }>): AuditedExam[] {
  return distinctExams(result.items.map((r) => r.exam));
}

/** QIDO-RS: studies, series and instances matching a query, scoped to what the caller may see. */
export class DicomWebSearch {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
  ) {}

  async studies(caller: { id: string }, q: Query, base: string): Promise<SearchPage> {
    const search = parseSearchQuery('study', q);
    const fields = includeFields(q);
    const scope = await readScope(this.db, caller);
    const result = page(await searchStudies(this.db, scope, search), search, (e) => ({
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
    const scope = await readScope(this.db, caller);
    const rows = await searchSeries(this.db, scope, search, studyUid);
    if (studyUid && rows.length === 0) await this.requireStudy(scope, studyUid);
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
    const scope = await readScope(this.db, caller);
    const rows = await searchInstances(this.db, scope, search, studyUid, seriesUid);
    if (studyUid && rows.length === 0) await this.requireStudy(scope, studyUid);
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
    return firstBlobs(this.db, level, ids);
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

  private async requireStudy(scope: ExamScope, studyUid: string): Promise<void> {
    const found = await searchStudies(this.db, scope, { StudyInstanceUID: studyUid, limit: '1' });
    if (found.length === 0) throw errors.notFound('Study');
  }
}
