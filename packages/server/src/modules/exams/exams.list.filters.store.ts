import type { ExamFilter, ReportSourceValue } from '@yyp/contracts';
import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { escapeLike } from '../../db/like.js';
import { examModalityValues, exams, examTags } from '../../db/schema.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { reportFilterSql } from './exams.list.report-filters.store.js';

/**
 * The study list's filters as SQL (exams.list.store.ts runs them): they arrive as values of the
 * contract's closed lists (field, operator and value shapes already checked) and are turned into
 * SQL here by lookup, never by writing a name the caller sent into the text. User text is a bound
 * parameter; LIKE wildcards in it are escaped.
 */

/** The patient name as searched: lower case, without DICOM separators or spaces (王^小东 → 王小东). */
const nameKey = sql`lower(replace(replace(${exams.patientName}, '^', ''), ' ', ''))`;
const normalizeName = (v: string) => v.toLowerCase().replace(/[\^\s]+/g, '');
/** The reference day of an age: the study date, or the arrival day without one (UTC). */
const ageAt = sql`case when ${exams.studyDate} ~ '^[0-9]{8}$' then ${exams.studyDate}
  else to_char(${exams.created} at time zone 'UTC', 'YYYYMMDD') end`;
/** Whole years between the birth date and the reference day; null without a valid birth date. */
const ageYears = sql`(case when ${exams.patientDob} ~ '^[0-9]{8}$' then
  substr(${ageAt}, 1, 4)::int - substr(${exams.patientDob}, 1, 4)::int
  - (case when substr(${ageAt}, 5, 4) < substr(${exams.patientDob}, 5, 4) then 1 else 0 end) end)`;

type TextMatch = 'eq' | 'contains' | 'prefix';
const likePattern = (v: string, how: 'contains' | 'prefix') =>
  how === 'contains' ? `%${escapeLike(v)}%` : `${escapeLike(v)}%`;

/** Case-insensitive match of lower(expr); lower-case LIKE (not ILIKE) so a text_pattern_ops index serves prefixes. */
function textMatch(expr: SQL, value: string, how: TextMatch): SQL {
  const v = value.toLowerCase();
  return how === 'eq' ? sql`${expr} = ${v}` : sql`${expr} like ${likePattern(v, how)}`;
}
const lowerOf = (column: AnyPgColumn) => sql`lower(${column})`;

/**
 * textMatch of a key of letters a to z: a prefix as the byte-wise range it spans ('zw' ≤ x < 'zx',
 * the operators of text_pattern_ops), the same rows as `like 'zw%'`, which an index reads as its
 * bounds without testing the pattern on each entry again.
 */
function lettersMatch(expr: SQL, key: string, how: TextMatch): SQL {
  if (how !== 'prefix') return textMatch(expr, key, how);
  const next = key.slice(0, -1) + String.fromCharCode(key.charCodeAt(key.length - 1) + 1);
  return sql`(${expr} ~>=~ ${key} and ${expr} ~<~ ${next})`;
}

const LETTERS = /^[a-z]+$/;

/** A patient name match: the name itself, or its pinyin initials when the text is Latin letters. */
function nameMatch(value: string, how: TextMatch): SQL {
  const key = normalizeName(value);
  if (!LETTERS.test(key)) return textMatch(nameKey, key, how);
  return or(lettersMatch(nameKey, key, how), lettersMatch(sql`${exams.patientNamePinyin}`, key, how))!;
}

/**
 * nameMatch as conditions of which no two hold for the same exam: the pinyin initials, then the
 * name where the initials do not match. Counted one by one and summed, each is an index-only scan
 * (exams_live_name_pinyin_idx, exams_live_name_key_idx) where their OR needs the table's rows.
 */
function nameMatchParts(value: string, how: TextMatch): SQL[] {
  const key = normalizeName(value);
  if (!LETTERS.test(key)) return [textMatch(nameKey, key, how)];
  const byInitials = lettersMatch(sql`${exams.patientNamePinyin}`, key, how);
  return [
    byInitials,
    and(lettersMatch(nameKey, key, how), sql`(${exams.patientNamePinyin} is null or not ${byInitials})`)!,
  ];
}

/**
 * A filter as disjoint conditions whose sum of counts is its count, when that is cheaper than
 * counting it as one (a name prefix or name; see nameMatchParts); null otherwise. The parts are
 * counted from exams_live_name_pinyin_idx and exams_live_name_key_idx, which lead with the
 * organization so that the scope is a bound of the index rather than a test of each entry.
 */
export function countParts(f: ExamFilter): SQL[] | null {
  if (f.field !== 'patientName' || (f.operator !== 'prefix' && f.operator !== 'eq')) return null;
  const parts = nameMatchParts(f.values[0] ?? '', f.operator);
  return parts.length > 1 ? parts : null;
}

/**
 * The key of a name search of one or two characters with no other filter but organizations (a
 * doctor typing the first letters of a name): its count is read from the per-organization prefix
 * counters (exam_name_prefix_counts, migration 0020), which hold exactly the exams nameMatch finds
 * for such a key; null for any other list.
 */
export function shortNamePrefix(filters: ExamFilter[]): string | null {
  const others = filters.filter((f) => f.field !== 'bucketId');
  const f = others[0];
  if (others.length !== 1 || f?.field !== 'patientName' || f.operator !== 'prefix') return null;
  const key = normalizeName(f.values[0] ?? '');
  const length = [...key].length;
  return length >= 1 && length <= 2 ? key : null;
}

/**
 * A name search of exactly two characters (see shortNamePrefix) as the heads its matches begin
 * with: the name key, and for Latin letters the pinyin initials. Each is an equality on the first
 * key of exams_live_name_head_idx or exams_live_pinyin_head_idx, whose entries follow in the
 * list's order, so a page is read as its first entries (exams.list.store.ts, headPageIdsQuery). The
 * same exams as nameMatch: a text begins with two characters exactly when its first two are them.
 */
export function nameHeads(filters: ExamFilter[]): SQL[] | null {
  const key = shortNamePrefix(filters);
  if (key === null || [...key].length !== 2) return null;
  const heads = [sql`left(${nameKey}, 2) = ${key}`];
  if (LETTERS.test(key)) heads.push(sql`left(${exams.patientNamePinyin}, 2) = ${key}`);
  return heads;
}

/**
 * ModalitiesInStudy is a backslash-separated list: CT matches "CT\SR". A plain modality (no
 * backslash, not empty) is matched as the exact values that hold it, read from
 * exam_modality_values (every value an exam holds is there, written with the exam): an equality
 * that exams_live_modality_date_idx reads as its bounds, with a study-date range within each,
 * instead of testing each exam's list. Several modalities make one set of values.
 */
function modalityMatch(wanted: string[]): SQL {
  const values = wanted.map((v) => v.toUpperCase());
  const plain = values.filter((v) => v !== '' && !v.includes('\\'));
  const parts = values
    .filter((v) => !plain.includes(v))
    .map((v) => sql`${v} = any(string_to_array(${exams.modality}, '\\'))`);
  if (plain.length > 0) {
    const known = examModalityValues.value;
    parts.unshift(sql`${exams.modality} = any(array(select ${known} from ${examModalityValues}
      where string_to_array(${known}, '\\') && ${textArrayLiteral(plain)}::text[]))`);
  }
  return parts.length === 1 ? parts[0]! : or(...parts)!;
}

const textColumns = {
  patientId: exams.patientId,
  accessionNumber: exams.accessionNumber,
  bodyPart: exams.bodyPart,
  studyDesc: exams.studyDesc,
  applyDept: exams.applyDept,
  orderPlacer: exams.orderPlacer,
} as const;

const flagColumns = {
  hasImage: exams.hasImage,
  urgentFlag: exams.urgentFlag,
  teleMedFlag: exams.teleMedFlag,
  printed: exams.studyPrinted,
  critical: exams.criticalFlag,
} as const;

const isoDate = (v: string) => v.replace(/-/g, '');
/** A bare date as the start of that UTC day; `end` makes it the start of the next one. */
function instant(v: string, end: boolean): Date {
  if (/^\d{4}-?\d{2}-?\d{2}$/.test(v)) {
    const d = isoDate(v);
    const t = Date.UTC(Number(d.slice(0, 4)), Number(d.slice(4, 6)) - 1, Number(d.slice(6, 8)));
    return new Date(end ? t + 86_400_000 : t);
  }
  return new Date(v);
}

/**
 * The report source (spec 000 §6): '2' the remote copies an expert read brought into the expert
 * organization (exams.source 'remote', orders-share.store.ts), '1' every other exam, '0' any. The
 * value is written into the text, never a parameter: only then can PostgreSQL see that a remote
 * list lies within exams_live_remote_created_idx (partial on source = 'remote'), whatever the plan.
 */
export function reportSourceSql(value: ReportSourceValue): SQL {
  if (value === '2') return sql`${exams.source} = 'remote'`;
  if (value === '1') return sql`${exams.source} <> 'remote'`;
  return sql`true`;
}

/**
 * An own-reports list ('1', almost every exam) counted as its list without the report source less
 * its remote copies: the first keeps the unfiltered list's counts (the per-organization counters,
 * the name indexes), the second reads exams_live_remote_created_idx. Null for any other list.
 */
export function ownAsAllLessRemote(filters: ExamFilter[]): { all: ExamFilter[]; remote: ExamFilter[] } | null {
  const sources = new Set(filters.filter((f) => f.field === 'reportSource').map((f) => f.values[0]));
  sources.delete('0');
  if (sources.size !== 1 || !sources.has('1')) return null;
  const all = filters.filter((f) => f.field !== 'reportSource');
  return { all, remote: [...all, { field: 'reportSource', operator: 'eq', values: ['2'] }] };
}

/**
 * The filters without report-source filters that keep every exam ('0'): such a list is the
 * unfiltered one, served as it is (the landing statement, the counters).
 */
export function withoutAllSources(filters: ExamFilter[]): ExamFilter[] {
  return filters.some((f) => f.field === 'reportSource' && f.values[0] === '0')
    ? filters.filter((f) => !(f.field === 'reportSource' && f.values[0] === '0'))
    : filters;
}

/** One filter (already checked against the contract: field, operator and value shapes) as SQL. */
export function filterSql(f: ExamFilter): SQL {
  const values = f.values;
  const first = values[0] ?? '';
  const anyOf = (parts: SQL[]) => (parts.length === 1 ? parts[0]! : or(...parts)!);
  switch (f.field) {
    case 'keyword': {
      const how = f.operator as 'contains' | 'prefix';
      return or(
        nameMatch(first, how),
        textMatch(lowerOf(exams.patientId), first, how),
        textMatch(lowerOf(exams.accessionNumber), first, how),
      )!;
    }
    case 'patientName':
      return anyOf(
        (f.operator === 'in' ? values : [first]).map((v) =>
          nameMatch(v, f.operator === 'in' ? 'eq' : (f.operator as TextMatch)),
        ),
      );
    case 'patientId':
    case 'accessionNumber':
    case 'bodyPart':
    case 'studyDesc':
    case 'applyDept':
    case 'orderPlacer': {
      const expr = lowerOf(textColumns[f.field]);
      if (f.operator === 'in') {
        return inArray(
          expr,
          values.map((v) => v.toLowerCase()),
        );
      }
      return textMatch(expr, first, f.operator as TextMatch);
    }
    case 'modality':
      return modalityMatch(f.operator === 'in' ? values : [first]);
    case 'studyDate': {
      if (f.operator === 'range') {
        const [from, to] = [isoDate(values[0]!), isoDate(values[1]!)];
        return and(
          sql`${exams.studyDate} <> ''`,
          from ? sql`${exams.studyDate} >= ${from}` : undefined,
          to ? sql`${exams.studyDate} <= ${to}` : undefined,
        )!;
      }
      return inArray(exams.studyDate, (f.operator === 'in' ? values : [first]).map(isoDate));
    }
    case 'created': {
      const [from, to] = [values[0]!, values[1]!];
      return and(
        from ? sql`${exams.created} >= ${instant(from, false).toISOString()}::timestamptz` : undefined,
        to ? sql`${exams.created} < ${instant(to, true).toISOString()}::timestamptz` : undefined,
      )!;
    }
    case 'age': {
      if (f.operator === 'eq') return sql`${ageYears} = ${Number(first)}`;
      const [from, to] = [values[0]!, values[1]!];
      return and(
        sql`${ageYears} is not null`,
        from ? sql`${ageYears} >= ${Number(from)}` : undefined,
        to ? sql`${ageYears} <= ${Number(to)}` : undefined,
      )!;
    }
    case 'bucketId':
      return inArray(exams.bucketId, f.operator === 'in' ? values : [first]);
    case 'patientGender':
      return inArray(
        exams.patientGender,
        (f.operator === 'in' ? values : [first]).map((v) => v.toUpperCase()),
      );
    case 'uploadStatus':
      return inArray(exams.uploadStatus, f.operator === 'in' ? values : [first]);
    case 'hasImage':
    case 'urgentFlag':
    case 'teleMedFlag':
    case 'printed':
    case 'critical':
      return eq(flagColumns[f.field], first === 'true');
    case 'patientSource':
      return inArray(
        exams.patientSource,
        (f.operator === 'in' ? values : [first]).map((v) => v.toUpperCase()),
      );
    case 'reportStatus':
      return inArray(exams.reportStatus, f.operator === 'in' ? values : [first]);
    case 'assigneeId': {
      const wanted = f.operator === 'in' ? values : [first];
      const ids = wanted.filter((v) => v !== 'none');
      return anyOf([
        ...(ids.length > 0 ? [inArray(exams.assigneeId, ids)] : []),
        ...(wanted.includes('none') ? [isNull(exams.assigneeId)] : []),
      ]);
    }
    case 'reportSource':
      return reportSourceSql(first as ReportSourceValue);
    case 'reportWriterId':
    case 'reportApproverId':
    case 'reportApproved':
    case 'reportPositive':
      return reportFilterSql({ ...f, field: f.field });
    case 'tagId':
      return sql`exists (select 1 from ${examTags} where ${examTags.examId} = ${exams.id}
        and ${inArray(examTags.tagId, f.operator === 'in' ? values : [first])})`;
  }
}
