import { and, asc, desc, eq, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { exams, instances, series } from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';
import { tagOf } from '../../dicom/json-model.js';
import { AppError } from '../../platform/errors.js';

/** QIDO-RS matching (PS3.18 8.3.4) over the rows the ingest keeps. */

export type Query = Record<string, string | string[] | undefined>;

const first = (q: Query, ...keys: string[]): string | undefined => {
  for (const k of keys) {
    const v = q[k];
    const s = Array.isArray(v) ? v[0] : v;
    if (s !== undefined && s !== '') return s;
  }
  return undefined;
};

/** Universal matching (*), wildcards (* and ?), or single value matching. */
function textMatch(column: Parameters<typeof eq>[0], value: string | undefined): SQL | undefined {
  if (value === undefined || value === '*') return undefined;
  if (/[*?]/.test(value)) {
    const pattern = escapeLike(value).replace(/\*/g, '%').replace(/\?/g, '_');
    return ilike(column as never, pattern);
  }
  return eq(column, value);
}

/** UID list matching: comma or backslash separated. */
function uidMatch(column: Parameters<typeof eq>[0], value: string | undefined): SQL | undefined {
  if (!value) return undefined;
  const list = value.split(/[\\,]/).filter(Boolean);
  return list.length > 1 ? inArray(column as never, list) : eq(column, list[0]!);
}

/** DA range matching: exact, "from-", "-to" or "from-to". */
function dateMatch(column: Parameters<typeof eq>[0], value: string | undefined): SQL | undefined {
  if (!value) return undefined;
  const m = /^(\d{8})?-(\d{8})?$/.exec(value.replace(/\./g, ''));
  if (m) return and(m[1] ? gte(column as never, m[1]) : undefined, m[2] ? lte(column as never, m[2]) : undefined);
  return eq(column, value.replace(/\./g, ''));
}

/**
 * includefield (PS3.18 8.3.4.3): 'all', or the tags asked for (keywords or 8-digit tags, repeated
 * or comma-separated). An unknown keyword is a 400, not silently ignored.
 */
export function includeFields(q: Query): 'all' | string[] {
  const raw = q.includefield ?? q.includeField;
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v) => v.split(','));
  const tags: string[] = [];
  for (const v of values.map((x) => x.trim()).filter(Boolean)) {
    if (v === 'all') return 'all';
    const tag = tagOf(v);
    if (!tag) throw new AppError('ValidationError', `includefield: unknown attribute "${v.slice(0, 64)}"`);
    tags.push(tag);
  }
  return [...new Set(tags)];
}

/** Searches fetch limit + 1 rows: the extra one only says that more results exist. */
export function paging(q: Query): { limit: number; offset: number } {
  const limit = Number.parseInt(first(q, 'limit') ?? '100', 10);
  const offset = Number.parseInt(first(q, 'offset') ?? '0', 10);
  return {
    limit: Number.isFinite(limit) && limit > 0 ? Math.min(limit, 1000) : 100,
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  };
}

export async function searchStudies(db: Db, bucketIds: string[], q: Query) {
  if (bucketIds.length === 0) return [];
  const { limit, offset } = paging(q);
  const modality = first(q, 'ModalitiesInStudy', '00080061');
  const where = and(
    inArray(exams.bucketId, bucketIds),
    isNull(exams.deletedTime),
    textMatch(exams.patientName, first(q, 'PatientName', '00100010')),
    textMatch(exams.patientId, first(q, 'PatientID', '00100020')),
    textMatch(exams.accessionNumber, first(q, 'AccessionNumber', '00080050')),
    textMatch(exams.studyDesc, first(q, 'StudyDescription', '00081030')),
    textMatch(exams.studyId, first(q, 'StudyID', '00200010')),
    uidMatch(exams.storeUid, first(q, 'StudyInstanceUID', '0020000D')),
    dateMatch(exams.studyDate, first(q, 'StudyDate', '00080020')),
    modality
      ? or(...modality.split(/[\\,]/).map((m) => sql`${m} = any(string_to_array(${exams.modality}, '\\'))`))
      : undefined,
  );
  return db
    .select()
    .from(exams)
    .where(where)
    .orderBy(desc(exams.studyDate), desc(exams.created))
    .limit(limit + 1)
    .offset(offset);
}

export async function searchSeries(db: Db, bucketIds: string[], q: Query, studyUid?: string) {
  if (bucketIds.length === 0) return [];
  const { limit, offset } = paging(q);
  const where = and(
    inArray(series.bucketId, bucketIds),
    isNull(exams.deletedTime),
    studyUid ? eq(exams.storeUid, studyUid) : uidMatch(exams.storeUid, first(q, 'StudyInstanceUID', '0020000D')),
    uidMatch(series.seriesUid, first(q, 'SeriesInstanceUID', '0020000E')),
    textMatch(series.modality, first(q, 'Modality', '00080060')),
    first(q, 'SeriesNumber', '00200011')
      ? eq(series.seriesNumber, Number(first(q, 'SeriesNumber', '00200011')))
      : undefined,
  );
  return db
    .select({ series, exam: exams })
    .from(series)
    .innerJoin(exams, eq(exams.id, series.examId))
    .where(where)
    .orderBy(asc(series.seriesNumber), asc(series.createdAt))
    .limit(limit + 1)
    .offset(offset);
}

/** `unbounded` serves WADO-RS retrieval, which answers every instance of a study or series. */
export async function searchInstances(
  db: Db,
  bucketIds: string[],
  q: Query,
  studyUid?: string,
  seriesUid?: string,
  unbounded = false,
) {
  if (bucketIds.length === 0) return [];
  const { limit, offset } = unbounded ? { limit: 1_000_000, offset: 0 } : paging(q);
  const where = and(
    inArray(instances.bucketId, bucketIds),
    isNull(exams.deletedTime),
    studyUid ? eq(exams.storeUid, studyUid) : uidMatch(exams.storeUid, first(q, 'StudyInstanceUID', '0020000D')),
    seriesUid ? eq(series.seriesUid, seriesUid) : uidMatch(series.seriesUid, first(q, 'SeriesInstanceUID', '0020000E')),
    uidMatch(instances.sopInstanceUid, first(q, 'SOPInstanceUID', '00080018')),
    first(q, 'InstanceNumber', '00200013')
      ? eq(instances.instanceNumber, Number(first(q, 'InstanceNumber', '00200013')))
      : undefined,
  );
  return db
    .select({ instance: instances, series, exam: exams })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .innerJoin(exams, eq(exams.id, instances.examId))
    .where(where)
    .orderBy(asc(series.seriesNumber), asc(instances.instanceNumber))
    .limit(limit + 1)
    .offset(offset);
}
