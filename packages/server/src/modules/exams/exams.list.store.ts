import crypto from 'node:crypto';
import type { ColorRuleLike, DobMatchMode, ExamFilter, ExamSort } from '@yyp/contracts';
import { and, asc, count, desc, eq, gt, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { anyText, textArrayLiteral } from '../../platform/sql.js';
import {
  accounts,
  bucketDictionary,
  bucketExamCounts,
  buckets,
  colorRules,
  exams,
  examTags,
  reportTableColors,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import type { ExamListRow } from './exams.presenter.js';
import type { ReportColorRules } from '../report-safety/report-colors.js';
import { countParts, filterSql } from './exams.list.filters.js';

/**
 * All SQL of the study list but its filters (exams.list.filters.ts): sorts arrive as values of
 * the contract's closed list and are turned into SQL here by lookup.
 */

const sortColumns: Record<ExamSort['field'], AnyPgColumn[]> = {
  created: [exams.created],
  studyDate: [exams.studyDate, exams.studyTime],
  patientName: [exams.patientName],
  patientId: [exams.patientId],
  accessionNumber: [exams.accessionNumber],
  modality: [exams.modality],
  bodyPart: [exams.bodyPart],
  instanceCount: [exams.instanceCount],
  patientGender: [exams.patientGender],
  bucketName: [buckets.name],
  urgentFlag: [exams.urgentFlag],
  reportStatus: [exams.reportStatus],
  assigneeName: [accounts.name],
  deletedTime: [exams.deletedTime],
};

/** ORDER BY of the sorts (default: `fallback` descending), then id in the last direction for a stable order. */
export function orderSql(sorts: ExamSort[], fallback: 'created' | 'deletedTime'): SQL[] {
  const list = sorts.length > 0 ? sorts : [{ field: fallback, direction: 'desc' as const }];
  const out: SQL[] = [];
  const seen = new Set<string>();
  for (const s of list) {
    if (seen.has(s.field)) continue;
    seen.add(s.field);
    for (const column of sortColumns[s.field]) out.push(s.direction === 'asc' ? asc(column) : desc(column));
  }
  out.push(list[list.length - 1]!.direction === 'asc' ? asc(exams.id) : desc(exams.id));
  return out;
}

export interface ListScope {
  /** buckets whose exams the caller may list */
  bucketIds: string[];
  /** live exams, or those deleted after `deletedAfter` */
  deleted: false | { after: Date };
  /** only the other exams of this patient (past exams), birth dates compared as the group says */
  samePatient?: { examId: string; patientId: string; dob: string; mode: DobMatchMode };
}

const DOB8 = /^\d{8}$/;

/**
 * Past exams of a patient: the same patient ID, and by the group's birth-date mode (spec 000 §9):
 * disabled, no check; shift_off, the same date; shift_on, within a year. A missing or malformed
 * date on either side cannot disprove the match.
 */
function samePatientSql(p: NonNullable<ListScope['samePatient']>): SQL {
  const base = and(eq(exams.patientId, p.patientId), sql`${exams.id} <> ${p.examId}`)!;
  if (p.mode === 'disabled' || !DOB8.test(p.dob)) return base;
  const known = sql`${exams.patientDob} ~ '^[0-9]{8}$'`;
  if (p.mode === 'shift_off') return and(base, sql`(not ${known} or ${exams.patientDob} = ${p.dob})`)!;
  return and(
    base,
    sql`(not ${known} or abs(to_date(${exams.patientDob}, 'YYYYMMDD') - to_date(${p.dob}, 'YYYYMMDD')) <= 366)`,
  )!;
}

/**
 * `column = any(ids)`: the ids a bound parameter, or with `constant` a literal of the statement's
 * text (the landing list's, see listPage), so that the text alone decides its plan.
 */
function idsIn(column: AnyPgColumn, ids: readonly string[], constant: boolean): SQL {
  if (!constant) return anyText(column, ids);
  return sql`${column} = any(${sql.raw(`'${textArrayLiteral(ids).replace(/'/g, "''")}'`)}::text[])`;
}

/** A row count written into the statement's text (LIMIT, OFFSET): `n` is an integer the caller checked. */
const constantCount = (n: number) => sql.raw(String(Math.max(0, Math.trunc(n)))) as unknown as number;

function scopeSql(scope: ListScope, constant = false): SQL {
  return and(
    idsIn(exams.bucketId, scope.bucketIds, constant),
    scope.deleted
      ? and(isNotNull(exams.deletedTime), gt(exams.deletedTime, scope.deleted.after))
      : isNull(exams.deletedTime),
    scope.samePatient ? samePatientSql(scope.samePatient) : undefined,
  )!;
}

/** The exam's tags with their names and colours, as JSON text (one query, no N+1). */
const tagsJson = sql<string | null>`(select json_agg(json_build_object('id', ${bucketDictionary.id},
  'name', ${bucketDictionary.name}, 'color', ${bucketDictionary.data}->>'color') order by ${bucketDictionary.sort}, ${bucketDictionary.name})::text
  from ${examTags} join ${bucketDictionary} on ${bucketDictionary.id} = ${examTags.tagId}
  where ${examTags.examId} = ${exams.id})`;

const listColumns = {
  id: exams.id,
  storeUid: exams.storeUid,
  bucketId: exams.bucketId,
  bucketName: buckets.name,
  groupId: buckets.groupId,
  patientName: exams.patientName,
  patientId: exams.patientId,
  patientGender: exams.patientGender,
  patientDob: exams.patientDob,
  accessionNumber: exams.accessionNumber,
  modality: exams.modality,
  bodyPart: exams.bodyPart,
  studyDate: exams.studyDate,
  studyTime: exams.studyTime,
  studyDesc: exams.studyDesc,
  created: exams.created,
  hasImage: exams.hasImage,
  uploadStatus: exams.uploadStatus,
  studyPrinted: exams.studyPrinted,
  seriesCount: exams.seriesCount,
  instanceCount: exams.instanceCount,
  deletedTime: exams.deletedTime,
  patientSource: exams.patientSource,
  applyDept: exams.applyDept,
  orderPlacer: exams.orderPlacer,
  urgentFlag: exams.urgentFlag,
  teleMedFlag: exams.teleMedFlag,
  isPrivacy: exams.isPrivacy,
  criticalFlag: exams.criticalFlag,
  reportStatus: exams.reportStatus,
  assigneeId: exams.assigneeId,
  assigneeName: accounts.name,
  aiStatus: exams.aiStatus,
  tagsJson,
};

/**
 * The list query, unrun: listExams runs it; bench/studies explains it (`.toSQL()`). The page's ids
 * are found first, on the exams alone (joining only what a sort needs), and the columns, names and
 * tags are read for those 20 rows only: a deep page skips rows without building them.
 */
export function listQuery(
  db: Db,
  scope: ListScope,
  filters: ExamFilter[],
  sorts: ExamSort[],
  skip: number,
  limit: number,
) {
  return pageQuery(db, scope, filters, sorts, skip, limit, listColumns);
}

/** `columns` is listColumns, or listColumns and more (drizzle types the rows as listColumns). */
function pageQuery(
  db: Db,
  scope: ListScope,
  filters: ExamFilter[],
  sorts: ExamSort[],
  skip: number,
  limit: number,
  columns: typeof listColumns,
  constant = false,
  windowTotal = false,
) {
  const order = orderSql(sorts, scope.deleted ? 'deletedTime' : 'created');
  let ids = db
    .select({ pageId: exams.id, ...(windowTotal ? { total: sql<string>`count(*) over ()`.as('page_total') } : {}) })
    .from(exams)
    .$dynamic();
  if (sorts.some((s) => s.field === 'bucketName')) ids = ids.innerJoin(buckets, eq(buckets.id, exams.bucketId));
  if (sorts.some((s) => s.field === 'assigneeName')) ids = ids.leftJoin(accounts, eq(accounts.id, exams.assigneeId));
  const page = ids
    .where(and(scopeSql(scope, constant), ...filters.map(filterSql)))
    .orderBy(...order)
    .limit(constant ? constantCount(limit) : limit)
    .offset(constant && skip > 0 ? constantCount(skip) : skip)
    .as('page');
  // The window's count, read back from the subquery (the `total` of pageStatement's columns).
  const counted = windowTotal
    ? ({ ...columns, total: sql<string>`"page"."page_total"` } as typeof listColumns)
    : columns;
  return db
    .select(counted)
    .from(page)
    .innerJoin(exams, eq(exams.id, page.pageId))
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .leftJoin(accounts, eq(accounts.id, exams.assigneeId))
    .orderBy(...order);
}

export async function listExams(
  db: Db,
  scope: ListScope,
  filters: ExamFilter[],
  sorts: ExamSort[],
  skip: number,
  limit: number,
): Promise<ExamListRow[]> {
  if (scope.bucketIds.length === 0) return [];
  return listQuery(db, scope, filters, sorts, skip, limit);
}

/**
 * Runs a prepared list statement under a name derived from its text, so PostgreSQL parses it once
 * per connection and may keep its plan (it still plans per call where the parameters matter, such
 * as a LIKE prefix). At most STATEMENT_NAMES_MAX distinct texts are named, bounding what each
 * connection keeps; past that, statements run unnamed. PGlite runs them the same either way.
 */
const STATEMENT_NAMES_MAX = 200;
const statementNames = new Set<string>();
function named<T>(prepared: { execute(): Promise<T> }): Promise<T> {
  const config = prepared as unknown as {
    queryString?: string;
    queryConfig?: { name?: string };
    rawQueryConfig?: { name?: string };
  };
  if (typeof config.queryString === 'string' && config.queryConfig && config.rawQueryConfig) {
    const name = `exam_list_${crypto.createHash('sha1').update(config.queryString).digest('hex').slice(0, 20)}`;
    if (statementNames.has(name) || statementNames.size < STATEMENT_NAMES_MAX) {
      statementNames.add(name);
      config.queryConfig.name = name;
      config.rawQueryConfig.name = name;
    }
  }
  return prepared.execute();
}

/** The statement listPage runs, unrun (bench/studies explains it). */
export function pageStatement(
  db: Db,
  scope: ListScope,
  filters: ExamFilter[],
  sorts: ExamSort[],
  skip: number,
  limit: number,
) {
  const constant = isLandingList(scope, filters);
  const windowTotal = countsWithPage(filters);
  const counted = windowTotal ? sql`0` : (countSql(db, scope, filters, constant) ?? sql`0`);
  const withTotals = {
    ...listColumns,
    total: sql<string>`${counted}`,
    rules: sql<unknown>`${colorRulesSql(scope.bucketIds, constant)}`,
    reportRules: sql<unknown>`${reportColorRulesSql(scope.bucketIds, constant)}`,
  };
  return pageQuery(db, scope, filters, sorts, skip, limit, withTotals, constant, windowTotal);
}

/**
 * Whether the page counts its rows itself (`count(*) over ()` while finding them) rather than by
 * a count of its own: with a study-date filter, whose matches are all read to be ordered anyway
 * (the date index does not give the list's order), one reading serves both. Not where a count
 * is cheaper on its own: a name search counted in parts (countParts), or no filter at all.
 */
function countsWithPage(filters: ExamFilter[]): boolean {
  return filters.some((f) => f.field === 'studyDate') && !filters.some((f) => countParts(f) !== null);
}

type LandingStatement = ReturnType<ReturnType<typeof pageStatement>['prepare']>;
const landingStatements = new WeakMap<Db, Map<string, LandingStatement>>();

/**
 * The landing list's statement, built once per organizations, sorts and page window: its text
 * holds all it needs (isLandingList), so the built statement is kept and run again as it is; the
 * STATEMENT_NAMES_MAX most recently used are kept.
 */
function landingStatement(db: Db, scope: ListScope, sorts: ExamSort[], skip: number, limit: number) {
  let kept = landingStatements.get(db);
  if (!kept) landingStatements.set(db, (kept = new Map()));
  const key = JSON.stringify([scope.bucketIds, sorts, skip, limit]);
  const found = kept.get(key);
  if (found) {
    kept.delete(key);
    kept.set(key, found);
    return found;
  }
  const built = pageStatement(db, scope, [], sorts, skip, limit).prepare('');
  kept.set(key, built);
  if (kept.size > STATEMENT_NAMES_MAX) kept.delete(kept.keys().next().value!);
  return built;
}

/**
 * The live list with no filter (the landing page and its pages): its statement holds no
 * parameters, the caller's organizations and the page window written into its text, so that
 * PostgreSQL plans it once per connection (a statement without parameters keeps its plan) and the
 * plan is made for those organizations (a small organization's list reads its own index).
 */
function isLandingList(scope: ListScope, filters: ExamFilter[]): boolean {
  return filters.length === 0 && !scope.deleted && !scope.samePatient;
}

/**
 * A page of the list with the count, the colour rules and the report table colours of the
 * organizations' groups, in one statement: they ride on the rows as uncorrelated subqueries
 * (PostgreSQL evaluates each once). A page with no rows asks for the count and rules on their own
 * (with no rows to paint, no report colours).
 */
export async function listPage(
  db: Db,
  scope: ListScope,
  filters: ExamFilter[],
  sorts: ExamSort[],
  skip: number,
  limit: number,
): Promise<{
  rows: ExamListRow[];
  count: number;
  rules: Map<string, ColorRuleLike[]>;
  reportRules: ReportColorRules;
}> {
  if (scope.bucketIds.length === 0) return { rows: [], count: 0, rules: new Map(), reportRules: new Map() };
  // Only the unfiltered list (the landing page and its pages) is named: with a filter, a plan
  // made for no values in particular (a generic plan) can be far worse than one for the values.
  const unfiltered = filters.every((f) => f.field === 'bucketId');
  const found = (await (isLandingList(scope, filters)
    ? named(landingStatement(db, scope, sorts, skip, limit))
    : unfiltered
      ? named(pageStatement(db, scope, filters, sorts, skip, limit).prepare(''))
      : pageStatement(db, scope, filters, sorts, skip, limit))) as (ExamListRow & {
    total: string;
    rules: unknown;
    reportRules: unknown;
  })[];
  if (found.length === 0) {
    return { rows: [], ...(await countWithColorRules(db, scope, filters)), reportRules: new Map() };
  }
  const rows: ExamListRow[] = found.map(({ total: _total, rules: _rules, reportRules: _report, ...row }) => row);
  return {
    rows,
    count: Number(found[0]!.total),
    rules: colorRulesFrom(found[0]!.rules),
    reportRules: reportColorRulesFrom(found[0]!.reportRules),
  };
}

/** The count query, unrun (see listQuery). */
export function countQuery(db: Db, scope: ListScope, filters: ExamFilter[]) {
  return db
    .select({ n: count() })
    .from(exams)
    .where(and(scopeSql(scope), ...filters.map(filterSql)));
}

/**
 * How many exams match. Live exams with no filter but their organizations are counted from the
 * per-organization counters the exams trigger keeps (a few rows, whatever the list holds); any
 * other filter counts the exams themselves, through the filters' indexes.
 */
function countSql(db: Db, scope: ListScope, filters: ExamFilter[], constant = false): SQL | null {
  const byBucket = filters.every((f) => f.field === 'bucketId');
  let bucketIds = scope.bucketIds;
  for (const f of filters) if (f.field === 'bucketId') bucketIds = bucketIds.filter((b) => f.values.includes(b));
  if (bucketIds.length === 0) return null;
  if (byBucket && !scope.deleted && !scope.samePatient) {
    return sql`(select coalesce(sum(${bucketExamCounts.live}), 0) from ${bucketExamCounts}
      where ${idsIn(bucketExamCounts.bucketId, bucketIds, constant)})`;
  }
  const split = filters.findIndex((f) => countParts(f) !== null);
  if (split < 0) return sql`(${countQuery(db, scope, filters)})`;
  const others = filters.filter((_, i) => i !== split);
  const counts = countParts(filters[split]!)!.map(
    (part) =>
      sql`(${db
        .select({ n: count() })
        .from(exams)
        .where(and(scopeSql(scope), ...others.map(filterSql), part))})`,
  );
  return sql`(${sql.join(counts, sql` + `)})`;
}

export async function countExams(db: Db, scope: ListScope, filters: ExamFilter[]): Promise<number> {
  const counted = countSql(db, scope, filters);
  if (!counted) return 0;
  const [row] = await rowsOf(await db.execute(sql`select ${counted} as n`));
  return Number(row?.n ?? 0);
}

type ColorRuleTuple = [string, number, number, string, string, string, string];

/** The colour rules of the organizations' groups as one JSON array, in priority order. */
function colorRulesSql(bucketIds: string[], constant = false): SQL {
  return sql`(select coalesce(json_agg(json_build_array(
        ${colorRules.groupId}, ${colorRules.priority}, ${colorRules.index}, ${colorRules.foreColor},
        ${colorRules.backgroundColor}, ${colorRules.matchField}, ${colorRules.value})
        order by ${colorRules.priority}, ${colorRules.index}), '[]')
      from ${colorRules} where ${colorRules.groupId} in
        (select ${buckets.groupId} from ${buckets} where ${idsIn(buckets.id, bucketIds, constant)}))`;
}

/**
 * The report table colours of the organizations' groups (report-safety's tableColorsOfBuckets,
 * the same rows in the same order) as one JSON array, read with the page.
 */
function reportColorRulesSql(bucketIds: string[], constant: boolean): SQL {
  const c = reportTableColors;
  return sql`(select coalesce(json_agg(json_build_array(${c.groupId}, ${c.field}, ${c.value}, ${c.color},
        ${c.background}, ${c.priority}) order by ${c.priority}, ${c.createdAt}, ${c.id}), '[]')
      from ${c} where ${c.groupId} in
        (select ${buckets.groupId} from ${buckets} where ${idsIn(buckets.id, bucketIds, constant)}))`;
}

function reportColorRulesFrom(raw: unknown): ReportColorRules {
  const rules: ReportColorRules = new Map();
  const tuples = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as [
    string,
    string,
    string,
    string,
    string,
    number,
  ][];
  for (const [groupId, field, value, color, background, priority] of tuples) {
    const list = rules.get(groupId) ?? [];
    list.push({ field, value, color, background, priority });
    rules.set(groupId, list);
  }
  return rules;
}

function colorRulesFrom(raw: unknown): Map<string, ColorRuleLike[]> {
  const rules = new Map<string, ColorRuleLike[]>();
  const tuples = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as ColorRuleTuple[];
  for (const [groupId, priority, index, foreColor, backgroundColor, matchField, value] of tuples) {
    const list = rules.get(groupId) ?? [];
    list.push({ priority, index, foreColor, backgroundColor, matchField, value });
    rules.set(groupId, list);
  }
  return rules;
}

/** The count and the colour rules of the organizations' groups, in one round trip. */
export async function countWithColorRules(
  db: Db,
  scope: ListScope,
  filters: ExamFilter[],
): Promise<{ count: number; rules: Map<string, ColorRuleLike[]> }> {
  if (scope.bucketIds.length === 0) return { count: 0, rules: new Map() };
  const counted = countSql(db, scope, filters) ?? sql`0`;
  const [row] = rowsOf(await db.execute(sql`select ${counted} as n, ${colorRulesSql(scope.bucketIds)} as rules`));
  return { count: Number(row?.n ?? 0), rules: colorRulesFrom(row?.rules) };
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** One exam in the list's shape, deleted or not. */
export async function examRow(db: Db, examId: string): Promise<ExamListRow | undefined> {
  const [row] = await db
    .select(listColumns)
    .from(exams)
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .leftJoin(accounts, eq(accounts.id, exams.assigneeId))
    .where(eq(exams.id, examId))
    .limit(1);
  return row;
}
