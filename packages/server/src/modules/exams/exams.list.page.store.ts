import type { ColorRuleLike, ExamFilter, ExamSort } from '@yyp/contracts';
import { eq, sql, type SQL } from 'drizzle-orm';
import { accounts, buckets, colorRules, exams, reportTableColors } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import type { ReportColorRules } from '../report-safety/index.js';
import { countParts, nameHeads, withoutAllSources } from './exams.list.filters.store.js';
import {
  countExams,
  countSql,
  headPageIdsQuery,
  idsIn,
  orderSql,
  listColumns,
  pageIdsQuery,
  pageQuery,
  type ListRequest,
  type ListScope,
} from './exams.list.store.js';
import type { ExamListRow } from './exams.presenter.js';
import { kept, mappedOnce, named } from './exams.list.statements.js';

/**
 * A page of the study list (POST exams/page-query, the deleted-exams view, past exams) with its
 * count and the colour rules of the organizations' groups, in as few statements as PostgreSQL can
 * keep plans for:
 * - the landing list (no filter) is one statement whose text holds all it needs, planned once per
 *   connection (landingStatement);
 * - a two-character name search in arrival order, and a list with a study-date range, find
 *   their page's ids and count their matches in one statement (pageWithCount), which also reads
 *   the page's rows where its plan is kept whatever the values;
 * - any other list runs its count (a named statement, whose plan PostgreSQL may keep), then its
 *   page's ids (countedPageIds: planned for its values, as how selective a filter is decides which
 *   index reads it, and with few matches they are found first, see FEW_MATCHES; past the last
 *   match there is no page to find);
 * - then the columns, names and tags of those ids and the colour rules in one statement prepared
 *   once (pageRows). Planning one statement that did all of it, for its values, cost more than
 *   running it.
 * Statements are built once and kept, named and mapped as exams.list.statements.ts says.
 */

/** The colour rules of the groups of the organizations `inBuckets` selects, as one JSON array in priority order. */
function colorRulesSql(inBuckets: SQL): SQL {
  return sql`(select coalesce(json_agg(json_build_array(
        ${colorRules.groupId}, ${colorRules.priority}, ${colorRules.index}, ${colorRules.foreColor},
        ${colorRules.backgroundColor}, ${colorRules.matchField}, ${colorRules.value})
        order by ${colorRules.priority}, ${colorRules.index}), '[]')
      from ${colorRules} where ${colorRules.groupId} in (select ${buckets.groupId} from ${buckets} where ${inBuckets}))`;
}

/**
 * The report table colours of the groups of the organizations `inBuckets` selects
 * (report-safety's tableColorsOfBuckets, the same rows in the same order) as one JSON array.
 */
function reportColorRulesSql(inBuckets: SQL): SQL {
  const c = reportTableColors;
  return sql`(select coalesce(json_agg(json_build_array(${c.groupId}, ${c.field}, ${c.value}, ${c.color},
        ${c.background}, ${c.priority}) order by ${c.priority}, ${c.createdAt}, ${c.id}), '[]')
      from ${c} where ${c.groupId} in (select ${buckets.groupId} from ${buckets} where ${inBuckets}))`;
}

const withRules = (inBuckets: SQL) => ({
  ...listColumns,
  rules: sql<unknown>`${colorRulesSql(inBuckets)}`,
  reportRules: sql<unknown>`${reportColorRulesSql(inBuckets)}`,
});

/**
 * The landing list's one statement, unrun: the page, the count (from the per-organization
 * counters) and the colour rules, with the organizations and the page window written into its
 * text, so that it holds no parameters and PostgreSQL plans it once per connection, for those
 * organizations (a small organization's list reads its own index). `filters` is empty or one
 * report source (isLandingList), whose value is text too: the remote copies are read, and counted,
 * from their own index (exams_live_remote_created_idx); the own reports walk the list's index, and
 * are counted as the counters less the remote copies (countSql).
 */
export function landingStatement(
  db: Db,
  scope: ListScope,
  sorts: ExamSort[],
  skip: number,
  limit: number,
  filters: ExamFilter[] = [],
) {
  const columns = {
    ...withRules(idsIn(buckets.id, scope.bucketIds, true)),
    total: sql<string>`${countSql(db, scope, filters, true) ?? sql`0`}`,
  };
  return pageQuery(db, { scope, filters, sorts, skip, limit }, columns, true) as unknown as LandingQuery;
}

/** The landing statement's rows: the list's, the rules and the count. */
interface LandingQuery {
  prepare(name: string): {
    execute(): Promise<(ExamListRow & { rules: unknown; reportRules: unknown; total: string })[]>;
  };
  toSQL(): { sql: string; params: unknown[] };
}

/** What a kept statement's key adds for the hidden exams (written into its text): nothing when none. */
const hiddenKey = (scope: ListScope) => (scope.hidden?.length ? [scope.hidden] : []);

/** landingStatement, built once per organizations, report source, sorts and page window (see kept). */
function keptLandingStatement(
  db: Db,
  scope: ListScope,
  sorts: ExamSort[],
  skip: number,
  limit: number,
  filters: ExamFilter[],
) {
  return kept(db, JSON.stringify(['landing', scope.bucketIds, filters, sorts, skip, limit, ...hiddenKey(scope)]), () =>
    mappedOnce(landingStatement(db, scope, sorts, skip, limit, filters).prepare('')),
  );
}

/** A live list filtered by nothing, or by one report source alone (own or remote reports). */
export const isLandingList = (scope: ListScope, filters: ExamFilter[]) =>
  (filters.length === 0 || (filters.length === 1 && filters[0]!.field === 'reportSource')) &&
  !scope.deleted &&
  !scope.samePatient;

/**
 * Whether the page counts its matches itself (`count(*) over ()` while finding them) rather than
 * by a count first: with a study-date filter, whose index reads only the matches, they are all read
 * to be ordered anyway, so one reading serves both. Not where a count is cheaper on its own: a
 * name search counted in parts (countParts) or from the prefix counters.
 */
export function countsWithPage(filters: ExamFilter[]): boolean {
  return filters.some((f) => f.field === 'studyDate') && !filters.some((f) => countParts(f) !== null);
}

/**
 * Filters of a counted-with-page list (countsWithPage) whose statement is named, its plan kept
 * whatever the values: all matches are read to be counted, so a plan is the index that reads
 * them, and with only these filters that is the study-date index or, with a modality, the
 * modality and study-date one, for any range (checked with EXPLAIN of the generic plan in
 * bench/studies). Other filters (a patient ID, a name) may want an index of their own.
 */
const DATE_INDEX_FIELDS = new Set<ExamFilter['field']>(['studyDate', 'modality', 'bucketId']);

/**
 * At most this many matches (known from the count), a page is found among the matches themselves
 * rather than by walking the list in its order (pageIdsQuery's `fenced`): reading a few hundred
 * matches through a filter's index costs less than walking ahead of them, which on a million exams
 * is about as many entries as the list holds per match.
 */
export const FEW_MATCHES = 500;

/**
 * The direction of a live list in arrival order (no sort, or one on created), which the name
 * head indexes keep (headPageIdsQuery); null for any other order or view.
 */
function createdOrder(scope: ListScope, sorts: ExamSort[]): 'asc' | 'desc' | null {
  if (scope.deleted || scope.samePatient || sorts.length > 1) return null;
  if (sorts.length === 0) return 'desc';
  return sorts[0]!.field === 'created' ? sorts[0]!.direction : null;
}

type IdsStatement = {
  prepare(name: string): { execute(): Promise<{ pageId: string; total: string | null }[]> };
  toSQL(): { sql: string; params: unknown[] };
} & PromiseLike<{ pageId: string; total: string | null }[]>;

/** A page's rows with the colour rules and the list's count (landing and whole-page statements). */
type PageRow = ExamListRow & { rules: unknown; reportRules: unknown; total: string };
interface RowsStatement {
  prepare(name: string): { execute(): Promise<PageRow[]> };
  toSQL(): { sql: string; params: unknown[] };
}

/**
 * A list that finds its page's ids and counts its matches at once (each row carries the count; an
 * empty page is counted on its own), unrun; null where the count comes first (countedPageIds):
 * - a two-character name search in arrival order: the page from the name head indexes
 *   (headPageIdsQuery), the count from the prefix counters;
 * - a study-date range (countsWithPage): all matches read, counted and ordered.
 * Where its plan can be kept whatever the values (a name head search, or a date range filtered by
 * no more than DATE_INDEX_FIELDS), it is one named statement with the page's rows and colour rules
 * too (`rows`), its organizations and window written into its text (a kept plan tests each match
 * against a constant list by hashing it, against a parameter one by one, and is costed for the
 * page); otherwise it finds the ids alone (`ids`), planned for its values, and pageRows follows.
 */
export function pageWithCount(db: Db, request: ListRequest): { rows: RowsStatement } | { ids: IdsStatement } | null {
  const { scope, filters, sorts, skip, limit } = request;
  const direction = createdOrder(scope, sorts);
  const heads = direction ? nameHeads(filters) : null;
  const total = heads ? countSql(db, scope, filters, true) : null;
  let ids: IdsStatement;
  if (heads && total) {
    ids = headPageIdsQuery(db, scope, filters, heads, direction!, skip, limit, total);
  } else if (countsWithPage(filters)) {
    if (!filters.every((f) => DATE_INDEX_FIELDS.has(f.field))) {
      return { ids: pageIdsQuery(db, request, { windowTotal: true }) };
    }
    ids = pageIdsQuery(db, request, { windowTotal: true, constant: true });
  } else {
    return null;
  }
  const page = (ids as unknown as { as(alias: string): { pageId: SQL; total: SQL } }).as('page');
  const rows = db
    .select({ ...withRules(idsIn(buckets.id, scope.bucketIds, true)), total: sql<string>`${page.total}` })
    .from(page as never)
    .innerJoin(exams, eq(exams.id, page.pageId))
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .leftJoin(accounts, eq(accounts.id, exams.assigneeId))
    .orderBy(...orderSql(sorts, 'created'));
  return { rows: rows as unknown as RowsStatement };
}

/**
 * The statement that finds the page's ids of a list counted first (not pageWithCount), unrun:
 * walked in its order or, with few matches (`count`), found among them (pageIdsQuery). `named`:
 * its plan can be kept whatever its values.
 */
export function countedPageIds(db: Db, request: ListRequest, count: number): { query: IdsStatement; named: boolean } {
  const query: IdsStatement = pageIdsQuery(db, request, { fenced: count <= FEW_MATCHES });
  return { query, named: request.filters.every((f) => f.field === 'bucketId') };
}

/** The count of a filtered list as a statement of its own, unrun; null when no organization is left. */
export function countStatement(db: Db, scope: ListScope, filters: ExamFilter[]) {
  const counted = countSql(db, scope, filters);
  return counted ? db.select({ n: sql<string>`${counted}` }).from(sql`(values (1)) as one (x)`) : null;
}

/**
 * The columns, names and tags of the exams of a page, in the order of its ids, and the colour rules
 * of the organizations: constant text (ids and organizations are parameters), prepared once per
 * database handle.
 */
export function pageRowsQuery(db: Db) {
  return db
    .select(withRules(sql`${buckets.id} = any(${sql.placeholder('buckets')}::text[])`))
    .from(sql`unnest(${sql.placeholder('ids')}::text[]) with ordinality as page (id, n)`)
    .innerJoin(exams, eq(exams.id, sql`page.id`))
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .leftJoin(accounts, eq(accounts.id, exams.assigneeId))
    .orderBy(sql`page.n`);
}
const preparePageRows = (db: Db) => mappedOnce(pageRowsQuery(db).prepare('exam_list_page_rows'));
const pageRowsStatements = new WeakMap<Db, ReturnType<typeof preparePageRows>>();

function pageRows(db: Db, ids: string[], bucketIds: string[]) {
  let statement = pageRowsStatements.get(db);
  if (!statement) pageRowsStatements.set(db, (statement = preparePageRows(db)));
  return statement.execute({ ids: textArrayLiteral(ids), buckets: textArrayLiteral(bucketIds) });
}

export interface ListPage {
  rows: ExamListRow[];
  count: number;
  rules: Map<string, ColorRuleLike[]>;
  reportRules: ReportColorRules;
}

/** A page of the list, its count and the colour rules and report table colours of the organizations' groups. */
export async function listPage(db: Db, asked: ListRequest): Promise<ListPage> {
  // A report source of all ('0') filters nothing: that list is the unfiltered one.
  const request = { ...asked, filters: withoutAllSources(asked.filters) };
  const { scope, filters, sorts, skip, limit } = request;
  if (scope.bucketIds.length === 0) return { rows: [], count: 0, rules: new Map(), reportRules: new Map() };
  type Found = ExamListRow & { rules: unknown; reportRules: unknown };
  let found: Found[];
  let count: number;
  if (isLandingList(scope, filters)) {
    const landing = await named(keptLandingStatement(db, scope, sorts, skip, limit, filters));
    found = landing;
    count = landing.length > 0 ? Number(landing[0]!.total) : await countExams(db, scope, filters);
  } else {
    let page: { pageId: string; total: string | null }[];
    // Not the deleted view, whose cutoff moves at each call, a patient's past exams, nor the
    // new-exam poll (a created range that moves with each poll): each would be built once and
    // only push out statements that are run again.
    const keep = !scope.deleted && !scope.samePatient && !filters.some((f) => f.field === 'created');
    const listKey = keep ? JSON.stringify([scope.bucketIds, filters, ...hiddenKey(scope)]) : null;
    const key = listKey && `${listKey} ${JSON.stringify([sorts, skip, limit])}`;
    const withCount = kept(db, key && `with-count ${key}`, () => {
      const w = pageWithCount(db, request);
      if (!w) return null;
      return 'rows' in w
        ? { kind: 'rows' as const, rows: mappedOnce(w.rows.prepare('')) }
        : { kind: 'ids' as const, ids: w.ids.prepare('') };
    });
    if (withCount?.kind === 'rows') {
      const rows = await named(withCount.rows);
      count = rows.length > 0 ? Number(rows[0]!.total) : await countExams(db, scope, filters);
      return pageOf(rows, count);
    }
    if (withCount) {
      page = await withCount.ids.execute();
      count = page.length > 0 ? Number(page[0]!.total) : await countExams(db, scope, filters);
    } else {
      const counting = kept(db, listKey && `count ${listKey}`, () => countStatement(db, scope, filters)?.prepare(''));
      count = counting ? Number((await named(counting))[0]?.n ?? 0) : 0;
      if (count <= skip) return { rows: [], count, rules: new Map(), reportRules: new Map() };
      const few = count <= FEW_MATCHES;
      const ids = kept(db, key && `ids ${few} ${key}`, () => {
        const c = countedPageIds(db, request, count);
        return { statement: c.query.prepare(''), named: c.named };
      });
      // A list filtered by nothing but organizations names its page: with another filter, a plan
      // made for no values in particular (a generic plan) can be far worse than one for the values.
      page = await (ids.named ? named(ids.statement) : ids.statement.execute());
    }
    found =
      page.length > 0
        ? await pageRows(
            db,
            page.map((p) => p.pageId),
            scope.bucketIds,
          )
        : [];
  }
  return pageOf(found, count);
}

/** The page of rows read with their colour rules (each row carries them), and its count. */
function pageOf(found: (ExamListRow & { rules: unknown; reportRules: unknown })[], count: number): ListPage {
  if (found.length === 0) return { rows: [], count, rules: new Map(), reportRules: new Map() };
  const rows: ExamListRow[] = found.map(({ rules: _rules, reportRules: _report, ...row }) => {
    const { total: _total, ...listed } = row as ExamListRow & { total?: unknown };
    return listed;
  });
  return {
    rows,
    count,
    rules: colorRulesFrom(found[0]!.rules),
    reportRules: reportColorRulesFrom(found[0]!.reportRules),
  };
}

type ColorRuleTuple = [string, number, number, string, string, string, string];

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
