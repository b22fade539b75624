import { and, asc, desc, eq, gte, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db.js';
import { exams, instances, series } from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { parseSearchQuery, type Condition, type Level, type Query, type SearchQuery } from './qido-query.js';

/** QIDO-RS matching (PS3.18 8.3.4, PS3.4 C.2.2.2) over the rows the ingest keeps. */

/**
 * Whose exams are searched: organizations, or organizations and the exams of theirs hidden from
 * the caller (consultation copies it takes no part in: the exams face's hiddenConsultationCopies).
 */
export type ExamScope = string[] | { buckets: string[]; hidden: readonly string[] };
export const bucketsOf = (scope: ExamScope): string[] => (Array.isArray(scope) ? scope : scope.buckets);
export const hiddenOf = (scope: ExamScope): readonly string[] => (Array.isArray(scope) ? [] : scope.hidden);
/** The exam is not one of the scope's hidden ones (nothing when none). */
const notHidden = (scope: ExamScope) => {
  const hidden = hiddenOf(scope);
  return hidden.length > 0 ? sql`not (${exams.id} = any(${textArrayLiteral(hidden)}::text[]))` : undefined;
};

/** The column each matching key (qido-query.ts MATCHING_KEYS) is matched against. */
const COLUMNS: Record<string, AnyPgColumn> = {
  StudyDate: exams.studyDate,
  StudyTime: exams.studyTime,
  AccessionNumber: exams.accessionNumber,
  ModalitiesInStudy: exams.modality,
  ReferringPhysicianName: exams.referringPhysician,
  StudyDescription: exams.studyDesc,
  PatientName: exams.patientName,
  PatientID: exams.patientId,
  PatientBirthDate: exams.patientDob,
  PatientSex: exams.patientGender,
  StudyInstanceUID: exams.storeUid,
  StudyID: exams.studyId,
  Modality: series.modality,
  SeriesDate: series.seriesDate,
  SeriesTime: series.seriesTime,
  SeriesDescription: series.description,
  BodyPartExamined: series.bodyPart,
  SeriesInstanceUID: series.seriesUid,
  SeriesNumber: series.seriesNumber,
  SOPClassUID: instances.sopClassUid,
  SOPInstanceUID: instances.sopInstanceUid,
  InstanceNumber: instances.instanceNumber,
};

/** A value with * and ? as a LIKE pattern (everything else literal). */
const likePattern = (value: string) => escapeLike(value).replace(/\*/g, '%').replace(/\?/g, '_');
const hasWildcards = (value: string) => /[*?]/.test(value);

/**
 * Person names match in any of their component groups (alphabetic, ideographic, phonetic: a
 * search for 张* finds Zhang^Wei=张^伟=) or whole, without regard to case (PS3.4 C.2.2.2.1 lets
 * PN matching ignore case), with wildcards.
 */
function personNameMatch(column: AnyPgColumn, value: string, caseSensitive: boolean): SQL {
  const p = caseSensitive ? likePattern(value) : likePattern(value).toLowerCase();
  const cased = (v: SQL) => (caseSensitive ? v : sql`lower(${v})`);
  return or(
    sql`${cased(sql`${column}`)} like ${p}`,
    ...[1, 2, 3].map((g) => sql`${cased(sql`split_part(${column}, '=', ${sql.raw(String(g))})`)} like ${p}`),
  )!;
}

/**
 * Single value matching is exact (case-sensitive, index-backed); wildcard matching compares lower
 * case (unless `caseSensitive`), which the lower(…) text_pattern_ops indexes of PatientID and
 * AccessionNumber serve for a fixed prefix.
 */
function textMatch(column: AnyPgColumn, value: string, caseSensitive: boolean): SQL {
  if (!hasWildcards(value)) return eq(column, value);
  if (caseSensitive) return sql`${column} like ${likePattern(value)}`;
  return sql`lower(${column}) like ${likePattern(value).toLowerCase()}`;
}

/** A TM value as HHMMSS, its fraction cut and a shorter one padded (qido-query.ts bound). */
const timeOf = (column: AnyPgColumn) => sql`rpad(split_part(${column}, '.', 1), 6, '0')`;

function conditionSql(c: Condition, caseSensitive: boolean): SQL | undefined {
  const column = COLUMNS[c.key.keyword]!;
  switch (c.kind) {
    case 'text':
      return textMatch(column, c.value, caseSensitive);
    case 'pn':
      return personNameMatch(column, c.value, caseSensitive);
    case 'uid':
      return c.values.length > 1 ? inArray(column, c.values) : eq(column, c.values[0]!);
    case 'modalities':
      return or(...c.values.map((m) => sql`${m} = any(string_to_array(${column}, '\\'))`));
    case 'int':
      return eq(column, c.value);
    case 'date':
      // An empty (unknown) date matches no range.
      if (c.from === c.to) return eq(column, c.from!);
      return and(ne(column, ''), c.from ? gte(column, c.from) : undefined, c.to ? lte(column, c.to) : undefined);
    case 'time': {
      const t = timeOf(column);
      return and(ne(column, ''), c.from ? sql`${t} >= ${c.from}` : undefined, c.to ? sql`${t} <= ${c.to}` : undefined);
    }
  }
}

/** The conditions of a search (or of a query, checked at `level`), as SQL. */
function matching(level: Level, q: Query | SearchQuery): { search: SearchQuery; where: (SQL | undefined)[] } {
  const search = q.conditions instanceof Map ? (q as SearchQuery) : parseSearchQuery(level, q as Query);
  const caseSensitive = search.caseSensitive === true;
  return { search, where: [...search.conditions.values()].map((c) => conditionSql(c, caseSensitive)) };
}

/**
 * Studies matching `q` (a query is checked as a study search; qido-query.ts). Index-backed for the
 * common keys: StudyInstanceUID (exams_bucket_store_uid_idx), PatientID (exams_patient_id_idx),
 * AccessionNumber (exams_accession_idx), StudyDate (exams_study_date_idx).
 */
export async function searchStudies(db: Db, scope: ExamScope, q: Query | SearchQuery) {
  const query = studiesQuery(db, scope, q);
  return bucketsOf(scope).length === 0 ? [] : query;
}

/** The statement of searchStudies (tests explain it). */
export function studiesQuery(db: Db, scope: ExamScope, q: Query | SearchQuery) {
  const { search, where } = matching('study', q);
  return db
    .select()
    .from(exams)
    .where(and(inArray(exams.bucketId, bucketsOf(scope)), isNull(exams.deletedTime), notHidden(scope), ...where))
    .orderBy(desc(exams.studyDate), desc(exams.created))
    .limit(search.limit + 1)
    .offset(search.offset);
}

/**
 * Patients (DIMSE C-FIND at the PATIENT level): the patient IDs of live exams matching the patient
 * keys of `search`, with their name, birth date and sex as the latest exam has them, and counts.
 */
export async function searchPatients(db: Db, buckets: string[], search: SearchQuery) {
  if (buckets.length === 0) return [];
  const { where } = matching('study', search);
  const latest = <T>(column: AnyPgColumn) => sql<T>`(array_agg(${column} order by ${exams.created} desc))[1]`;
  return db
    .select({
      patientId: exams.patientId,
      patientName: latest<string>(exams.patientName),
      patientDob: latest<string>(exams.patientDob),
      patientGender: latest<string>(exams.patientGender),
      studies: sql<number>`count(*)::int`,
      series: sql<number>`coalesce(sum(${exams.seriesCount}), 0)::int`,
      instances: sql<number>`coalesce(sum(${exams.instanceCount}), 0)::int`,
    })
    .from(exams)
    .where(and(inArray(exams.bucketId, buckets), isNull(exams.deletedTime), ...where))
    .groupBy(exams.patientId)
    .orderBy(asc(exams.patientId))
    .limit(search.limit + 1)
    .offset(search.offset);
}

/**
 * Series matching `q` (study and series keys), within one study when the path names it. The
 * study's keys are matched on its exam row, so /series?PatientID=X answers X's series only.
 */
export async function searchSeries(db: Db, scope: ExamScope, q: Query | SearchQuery, studyUid?: string) {
  const query = seriesQuery(db, scope, q, studyUid);
  return bucketsOf(scope).length === 0 ? [] : query;
}

/** Rows of the caller's organizations (`bucketColumn`) on live exams, in the study the path names, and `more`. */
function liveIn(
  bucketColumn: AnyPgColumn,
  scope: ExamScope,
  studyUid: string | undefined,
  ...more: (SQL | undefined)[]
) {
  return and(
    inArray(bucketColumn, bucketsOf(scope)),
    isNull(exams.deletedTime),
    notHidden(scope),
    studyUid ? eq(exams.storeUid, studyUid) : undefined,
    ...more,
  );
}

/** The statement of searchSeries (tests explain it). */
export function seriesQuery(db: Db, scope: ExamScope, q: Query | SearchQuery, studyUid?: string) {
  const { search, where } = matching('series', q);
  return db
    .select({ series, exam: exams })
    .from(series)
    .innerJoin(exams, eq(exams.id, series.examId))
    .where(liveIn(series.bucketId, scope, studyUid, ...where))
    .orderBy(asc(series.seriesNumber), asc(series.createdAt))
    .limit(search.limit + 1)
    .offset(search.offset);
}

/**
 * Instances matching `q` (study, series and instance keys), within the study and series the
 * path names. `unbounded` serves WADO-RS retrieval, which answers every instance of a study or series.
 */
export async function searchInstances(...args: Parameters<typeof instancesQuery>) {
  const [, scope] = args;
  const query = instancesQuery(...args);
  return bucketsOf(scope).length === 0 ? [] : query;
}

/** The statement of searchInstances (tests explain it). */
export function instancesQuery(
  db: Db,
  scope: ExamScope,
  q: Query | SearchQuery,
  studyUid?: string,
  seriesUid?: string,
  unbounded = false,
) {
  const { search, where } = matching('instance', q);
  const { limit, offset } = unbounded ? { limit: 1_000_000, offset: 0 } : search;
  return db
    .select({ instance: instances, series, exam: exams })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .innerJoin(exams, eq(exams.id, instances.examId))
    .where(
      liveIn(instances.bucketId, scope, studyUid, seriesUid ? eq(series.seriesUid, seriesUid) : undefined, ...where),
    )
    .orderBy(asc(series.seriesNumber), asc(instances.instanceNumber))
    .limit(limit + 1)
    .offset(offset);
}

/**
 * The first stored instance of each exam or series (by instance number, then arrival): where a
 * search's includefield values are read. Answers id → the instance's file.
 */
export async function firstBlobs(db: Db, level: 'exam' | 'series', ids: string[]): Promise<Map<string, string>> {
  const column = level === 'exam' ? instances.examId : instances.seriesId;
  const rows = await db
    .selectDistinctOn([column], { id: column, blobKey: instances.blobKey })
    .from(instances)
    .where(inArray(column, ids))
    .orderBy(column, instances.instanceNumber, instances.createdAt);
  return new Map(rows.map((r) => [r.id, r.blobKey]));
}
