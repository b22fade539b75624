import type { ExamFilter, ExamSort } from '@yyp/contracts';
import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import {
  accounts,
  bucketDictionary,
  bucketExamCounts,
  buckets,
  examNamePrefixCounts,
  exams,
  examTags,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import type { ExamListRow } from './exams.presenter.js';
import {
  countParts,
  filterSql,
  ownAsAllLessRemote,
  shortNamePrefix,
  withoutAllSources,
} from './exams.list.filters.store.js';
import { idsIn, lessHidden, scopeSql, type ListScope } from './exams.list.scope.store.js';

export { idsIn, type ListScope } from './exams.list.scope.store.js';

/**
 * All SQL of the study list but its filters (exams.list.filters.store.ts): sorts arrive as values of
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

/** The list's order as columns and directions: the sorts (default: `fallback` descending), then id in the last direction for a stable order. */
function orderTerms(sorts: ExamSort[], fallback: 'created' | 'deletedTime'): [AnyPgColumn, 'asc' | 'desc'][] {
  const list = sorts.length > 0 ? sorts : [{ field: fallback, direction: 'desc' as const }];
  const out: [AnyPgColumn, 'asc' | 'desc'][] = [];
  const seen = new Set<string>();
  for (const s of list) {
    if (seen.has(s.field)) continue;
    seen.add(s.field);
    for (const column of sortColumns[s.field]) out.push([column, s.direction]);
  }
  out.push([exams.id, list[list.length - 1]!.direction]);
  return out;
}

/** ORDER BY of the sorts (see orderTerms). */
export function orderSql(sorts: ExamSort[], fallback: 'created' | 'deletedTime'): SQL[] {
  return orderTerms(sorts, fallback).map(([column, dir]) => (dir === 'asc' ? asc(column) : desc(column)));
}

/** A page of the list as asked: whose exams, which of them, in what order, `limit` from `skip`. */
export interface ListRequest {
  scope: ListScope;
  filters: ExamFilter[];
  sorts: ExamSort[];
  skip: number;
  limit: number;
}

/** A row count written into the statement's text (LIMIT, OFFSET): `n` is an integer the caller checked. */
const constantCount = (n: number) => sql.raw(String(Math.max(0, Math.trunc(n)))) as unknown as number;

/** The exam's tags with their names and colours, as JSON text (one query, no N+1). */
const tagsJson = sql<string | null>`(select json_agg(json_build_object('id', ${bucketDictionary.id},
  'name', ${bucketDictionary.name}, 'color', ${bucketDictionary.data}->>'color') order by ${bucketDictionary.sort}, ${bucketDictionary.name})::text
  from ${examTags} join ${bucketDictionary} on ${bucketDictionary.id} = ${examTags.tagId}
  where ${examTags.examId} = ${exams.id})`;

export const listColumns = {
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
 * The ids of a page of the list, in its order, found on the exams alone, joining only what a sort
 * needs; `constant` writes the organizations and the window into the text (exams.list.page.store.ts).
 * - With `fenced` (few matches, known from the count), the matches are found first on their own,
 *   through the filters' indexes, and only they are ordered: left to itself, PostgreSQL may instead
 *   walk the list in its order waiting for matches, which for a search matching few or no exams
 *   reads the whole index.
 * - With `windowTotal`, each row also carries the count of all matches, `count(*) over ()`: all
 *   matches are read (a study-date range, whose index reads only them) and then ordered, in a query
 *   of its own (a window keeps PostgreSQL from merging it into the ordering one), so that it reads
 *   them the cheapest way rather than in the list's order.
 */
export function pageIdsQuery(
  db: Db,
  { scope, filters, sorts, skip, limit }: ListRequest,
  {
    constant = false,
    fenced = false,
    windowTotal = false,
  }: { constant?: boolean; fenced?: boolean; windowTotal?: boolean } = {},
) {
  const terms = orderTerms(sorts, scope.deleted ? 'deletedTime' : 'created');
  const where = and(scopeSql(scope, constant), ...filters.map(filterSql))!;
  const joined = <Q extends PgSelect>(q: Q): Q => {
    let out = q;
    if (sorts.some((s) => s.field === 'bucketName')) {
      out = out.innerJoin(buckets, eq(buckets.id, exams.bucketId)) as unknown as Q;
    }
    if (sorts.some((s) => s.field === 'assigneeName')) {
      out = out.leftJoin(accounts, eq(accounts.id, exams.assigneeId)) as unknown as Q;
    }
    return out;
  };
  const window = (q: { limit(n: number): { offset(n: number): unknown } }) =>
    q.limit(constant ? constantCount(limit) : limit).offset(constant && skip > 0 ? constantCount(skip) : skip);
  if (windowTotal) {
    const keys = Object.fromEntries(terms.map(([column], i) => [`k${i}`, sql`${column}`.as(`k${i}`)]));
    const matches = joined(
      db
        .select({ pageId: exams.id, total: sql<string>`count(*) over ()`.as('page_total'), ...keys })
        .from(exams)
        .$dynamic(),
    )
      .where(where)
      .as('matches');
    const ordered = db
      .select({ pageId: matches.pageId, total: matches.total })
      .from(matches)
      .orderBy(...terms.map(([, dir], i) => sql`${sql.identifier(`k${i}`)} ${sql.raw(dir)}`))
      .$dynamic();
    return window(ordered) as typeof ordered;
  }
  // OFFSET 0 keeps the subquery a plan of its own (PostgreSQL does not merge it into the outer one).
  const matched = fenced
    ? sql`${exams.id} in (select "id" from (${db.select({ id: exams.id }).from(exams).where(where)} offset 0) as matched)`
    : where;
  const ids = joined(
    db
      .select({ pageId: exams.id, total: sql<string | null>`null` })
      .from(exams)
      .$dynamic(),
  )
    .where(matched)
    .orderBy(...terms.map(([column, dir]) => (dir === 'asc' ? asc(column) : desc(column))));
  return window(ids) as typeof ids;
}

/**
 * The ids of a page of a two-character name search in the list's created order, `direction`
 * (exams.list.page.store.ts; `heads` from nameHeads), unrun: for each head its first skip + limit
 * matches, read in order from its index, then together (UNION: an exam matching both heads once),
 * in the list's order, each row with `total` (the count). It reads about skip + limit entries per head, where walking the list in its
 * order reads every exam ahead of the page's matches. Its organizations are written into its text
 * (a kept plan hashes a constant list) and it can be named, its plan kept: whatever the key, the
 * head's index serves it best.
 */
export function headPageIdsQuery(
  db: Db,
  scope: ListScope,
  filters: ExamFilter[],
  heads: SQL[],
  direction: 'asc' | 'desc',
  skip: number,
  limit: number,
  total: SQL,
) {
  const by = direction === 'asc' ? asc : desc;
  // The heads stand for the name filter (the same exams): testing it again on each entry would
  // only make the planner count its matches twice, expect a few, and read them all to sort them.
  const others = filters.filter((f) => f.field !== 'patientName');
  const where = and(scopeSql(scope, true), ...others.map(filterSql));
  const arm = (head: SQL) =>
    db
      .select({ pageId: exams.id, created: exams.created })
      .from(exams)
      .where(and(head, where))
      .orderBy(by(exams.created), by(exams.id))
      .$dynamic();
  // The window is written into the text too: with LIMIT a parameter, a kept (generic) plan is
  // costed for a tenth of the matches, and PostgreSQL would keep planning it for each call instead.
  const [first, ...rest] = heads.map(arm);
  const [ahead, window, skipped] = [constantCount(skip + limit), constantCount(limit), constantCount(skip)];
  const page = (
    rest.length === 0
      ? first!.limit(window).offset(skipped)
      : first!
          .limit(ahead)
          .union(rest[0]!.limit(ahead))
          .orderBy(by(exams.created), by(exams.id))
          .limit(window)
          .offset(skipped)
  ).as('heads');
  return db
    .select({ pageId: page.pageId, total: sql<string>`${total}`.as('page_total') })
    .from(page)
    .orderBy(by(page.created), by(page.pageId));
}

/**
 * A page of the list in one statement: its ids (pageIdsQuery) joined back to the exams for the
 * columns, names and tags of those rows only, so a deep page skips rows without building them.
 * `columns` is listColumns, or listColumns and more (drizzle types the rows as listColumns).
 */
export function pageQuery(db: Db, request: ListRequest, columns: typeof listColumns = listColumns, constant = false) {
  const order = orderSql(request.sorts, request.scope.deleted ? 'deletedTime' : 'created');
  const page = pageIdsQuery(db, request, { constant }).as('page');
  return db
    .select(columns)
    .from(page)
    .innerJoin(exams, eq(exams.id, page.pageId))
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .leftJoin(accounts, eq(accounts.id, exams.assigneeId))
    .orderBy(...order);
}

/** Exams of the list in its shape (the export's rows), `limit` from `skip`. */
export async function listExams(db: Db, request: ListRequest): Promise<ExamListRow[]> {
  if (request.scope.bucketIds.length === 0) return [];
  return pageQuery(db, { ...request, filters: withoutAllSources(request.filters) });
}

/** The count query, unrun (`constant`: the organizations written into its text, see idsIn). */
export function countQuery(db: Db, scope: ListScope, filters: ExamFilter[], constant = false) {
  return db
    .select({ n: count() })
    .from(exams)
    .where(and(scopeSql(scope, constant), ...filters.map(filterSql)));
}

/**
 * How many exams match. Live exams with no filter but their organizations, or with a name search
 * of one or two characters besides, are counted from the per-organization counters the exams
 * triggers keep (a few rows, whatever the list holds); any other filter counts the exams
 * themselves, through the filters' indexes. An own-reports list is counted as the same list
 * without it less its remote copies (ownAsAllLessRemote), so it keeps those counts.
 */
export function countSql(db: Db, scope: ListScope, filters: ExamFilter[], constant = false): SQL | null {
  const own = ownAsAllLessRemote(filters);
  if (own) {
    const [all, remote] = [countSql(db, scope, own.all, constant), countSql(db, scope, own.remote, constant)];
    return all && remote ? sql`(${all} - ${remote})` : null;
  }
  const byBucket = filters.every((f) => f.field === 'bucketId');
  let bucketIds = scope.bucketIds;
  for (const f of filters) if (f.field === 'bucketId') bucketIds = bucketIds.filter((b) => f.values.includes(b));
  if (bucketIds.length === 0) return null;
  if (byBucket && !scope.deleted && !scope.samePatient) {
    const counted = sql`(select coalesce(sum(${bucketExamCounts.live}), 0) from ${bucketExamCounts}
      where ${idsIn(bucketExamCounts.bucketId, bucketIds, constant)})`;
    return lessHidden(db, counted, scope, bucketIds, filters, constant);
  }
  const prefix = scope.deleted || scope.samePatient ? null : shortNamePrefix(filters);
  if (prefix !== null) {
    const c = examNamePrefixCounts;
    const counted = sql`(select coalesce(sum(${c.live}), 0) from ${c}
      where ${idsIn(c.bucketId, bucketIds, constant)} and ${c.prefix} = ${prefix})`;
    return lessHidden(db, counted, scope, bucketIds, filters, constant);
  }
  // The remote copies are few, read from their own index: a name search among them is one count.
  const remote = filters.some((f) => f.field === 'reportSource' && f.values[0] === '2');
  const split = remote ? -1 : filters.findIndex((f) => countParts(f) !== null);
  if (split < 0) return sql`(${countQuery(db, scope, filters, constant)})`;
  const others = filters.filter((_, i) => i !== split);
  const counts = countParts(filters[split]!)!.map(
    (part) =>
      sql`(${db
        .select({ n: count() })
        .from(exams)
        .where(and(scopeSql(scope, constant), ...others.map(filterSql), part))})`,
  );
  return sql`(${sql.join(counts, sql` + `)})`;
}

/** countExams' statement, unrun; null when no organization is left. */
export function countExamsSql(db: Db, scope: ListScope, filters: ExamFilter[]): SQL | null {
  const counted = countSql(db, scope, filters);
  return counted ? sql`select ${counted} as n` : null;
}

export async function countExams(db: Db, scope: ListScope, filters: ExamFilter[]): Promise<number> {
  const statement = countExamsSql(db, scope, withoutAllSources(filters));
  if (!statement) return 0;
  const [row] = await rowsOf(await db.execute(statement));
  return Number(row?.n ?? 0);
}

export function rowsOf(result: unknown): Record<string, unknown>[] {
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
