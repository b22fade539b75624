/**
 * The study list's SQL, checked in (issue 21 step 2): each case is a representative list query,
 * rendered as the statements exams.list.page.store.ts (listPage) and exams.list.store.ts
 * (countExams) run for it, in order, with their parameters, and compared with
 * __sql__/<case>.sql. The statements are hand-tuned for their indexes (see the comments there and
 * bench/studies): a change to their text fails here with the diff, so that a reviewer sees what a
 * change does to the SQL. When the change is meant, rewrite the files and commit them with it:
 *
 *   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project unit packages/server/src/modules/exams/exams.list.sql.test.ts
 *
 * The statements are built, never run (drizzle's mock database: no connection). Which statements
 * a query runs follows listPage's choice (landing list, page with its count, or count first and
 * then the page's ids, then the page's rows), as bench/studies/index.mjs explains them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXAM_SORT_FIELDS, type ExamFilter, type ExamSort } from '@yyp/contracts';
import type { SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import {
  countedPageIds,
  countStatement,
  FEW_MATCHES,
  isLandingList,
  landingStatement,
  pageRowsQuery,
  pageWithCount,
} from './exams.list.page.store.js';
import { countExamsSql, type ListScope } from './exams.list.store.js';

const SNAPSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '__sql__');
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';

const db = drizzle.mock({ schema }) as unknown as Db;
const dialect = new PgDialect();

type Rendered = { title: string; sql: string; params: unknown[] };
type Statement = { toSQL(): { sql: string; params: unknown[] } };

const render = (title: string, s: Statement): Rendered => ({ title, ...s.toSQL() });
const renderSql = (title: string, s: SQL): Rendered => ({ title, ...dialect.sqlToQuery(s) });

/** Clauses that start a line; each line is indented by its depth of parentheses. */
const CLAUSE = /^(select|from|inner join|left join|where|group by|order by|limit|offset|union)\b/;

/** Runs of white space outside quoted names and strings as one space. */
function squeezed(text: string): string {
  let out = '';
  let quote: string | null = null;
  for (const c of text) {
    if (quote) {
      out += c;
      if (c === quote) quote = null;
    } else if (/\s/.test(c)) {
      if (!out.endsWith(' ')) out += ' ';
    } else {
      if (c === "'" || c === '"') quote = c;
      out += c;
    }
  }
  return out.trim();
}

/**
 * A statement's text laid out one clause a line and one selected column a line, indented by its
 * depth of parentheses.
 */
function layout(text: string): string {
  const flat = squeezed(text);
  const word = (i: number, w: string) => flat.startsWith(w, i) && !/[\w"]/.test(flat[i - 1] ?? ' ');
  /** depths whose select list is being written (columns break at their commas) */
  const selecting = new Set<number>();
  let out = '';
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < flat.length; i++) {
    const c = flat[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      selecting.delete(depth);
      depth--;
    } else if (word(i, 'select ')) {
      selecting.add(depth);
    } else if (word(i, 'from ')) {
      selecting.delete(depth);
    } else if (c === ',' && selecting.has(depth) && flat[i + 1] === ' ') {
      out += ',\n' + '  '.repeat(depth + 1);
      i++;
      continue;
    } else if (c === ' ' && CLAUSE.test(flat.slice(i + 1))) {
      out += '\n' + '  '.repeat(Math.max(0, depth));
      continue;
    }
    out += c;
  }
  return out;
}

function fileText(title: string, statements: Rendered[], notes: string[] = []): string {
  const parts = [`-- ${title}`, ...notes.map((n) => `-- ${n}`), ''];
  statements.forEach((s, i) => {
    parts.push(`-- ${i + 1}. ${s.title}`, `${layout(s.sql)};`, `-- params: ${JSON.stringify(s.params)}`, '');
  });
  return parts.join('\n');
}

const scope: ListScope = { bucketIds: ['org-a', 'org-b'], deleted: false };
const SKIP = 0;
const LIMIT = 20;

/**
 * The statements listPage runs for a list, in order; `count` stands for the count a counted-first
 * list reads before finding its page's ids (it decides whether the ids are found among few matches).
 */
function listStatements(s: ListScope, filters: ExamFilter[], sorts: ExamSort[], count: number): Rendered[] {
  if (isLandingList(s, filters)) {
    return [
      render('the landing list: page, count and colour rules', landingStatement(db, s, sorts, SKIP, LIMIT, filters)),
    ];
  }
  const request = { scope: s, filters, sorts, skip: SKIP, limit: LIMIT };
  const withCount = pageWithCount(db, request);
  if (withCount && 'rows' in withCount) return [render('page, count and colour rules', withCount.rows)];
  if (withCount) return [render("the page's ids, each with the count", withCount.ids)];
  const counting = countStatement(db, s, filters);
  const out = counting ? [render('count', counting)] : [];
  const ids = countedPageIds(db, request, count);
  const how = count <= FEW_MATCHES ? 'among few matches' : 'in the list order';
  out.push(render(`the page's ids, ${how}${ids.named ? ' (named)' : ''}`, ids.query));
  return out;
}

const PAGE_ROWS_NOTE = "then the page's rows and colour rules: page-rows.sql";

const f = (field: ExamFilter['field'], operator: ExamFilter['operator'], ...values: string[]): ExamFilter => ({
  field,
  operator,
  values,
});

const cases: Record<string, () => { title: string; statements: Rendered[]; notes?: string[] }> = {
  landing: () => ({
    title: 'Default page: no filter, no sort, first page of 20',
    statements: listStatements(scope, [], [], 0),
  }),
  sorts: () => ({
    title: "Each sort, descending: the page's ids of a list filtered by one organization",
    statements: EXAM_SORT_FIELDS.flatMap(
      (field) =>
        countedPageIds(
          db,
          {
            scope,
            filters: [f('bucketId', 'eq', 'org-a')],
            sorts: [{ field, direction: 'desc' }],
            skip: SKIP,
            limit: LIMIT,
          },
          1000,
        ).query,
    ).map((query, i) => render(`sort by ${EXAM_SORT_FIELDS[i]}`, query)),
    notes: [PAGE_ROWS_NOTE],
  }),
  'report-source-remote': () => ({
    title: "Report source remote ('2') alone: a landing list, read and counted from exams_live_remote_created_idx",
    statements: listStatements(scope, [f('reportSource', 'eq', '2')], [], 0),
  }),
  'report-source-own': () => ({
    title: "Report source own ('1') alone: a landing list, counted as the counters less the remote copies",
    statements: listStatements(scope, [f('reportSource', 'eq', '1')], [], 0),
  }),
  'report-source-own-name': () => ({
    title: "Report source own ('1') and patientName prefix 'zw': the prefix counters less the remote matches",
    statements: listStatements(scope, [f('patientName', 'prefix', 'zw'), f('reportSource', 'eq', '1')], [], 1000),
    notes: ['1000 matches counted', PAGE_ROWS_NOTE],
  }),
  keyword: () => ({
    title: "Text search: keyword contains 'wang' (name, pinyin initials, patient ID, accession number)",
    statements: listStatements(scope, [f('keyword', 'contains', 'wang')], [], 42),
    notes: ['42 matches counted', PAGE_ROWS_NOTE],
  }),
  'name-two-letters': () => ({
    title: "Name search of two letters: patientName prefix 'zw', in arrival order (name head indexes)",
    statements: listStatements(scope, [f('patientName', 'prefix', 'zw')], [], 0),
  }),
  'name-prefix': () => ({
    title: "Name search of three letters: patientName prefix 'zwe' (counted in two disjoint parts)",
    statements: listStatements(scope, [f('patientName', 'prefix', 'zwe')], [], 1000),
    notes: ['1000 matches counted', PAGE_ROWS_NOTE],
  }),
  'study-date-range': () => ({
    title: 'Date range: studyDate 2024-01-01 to 2024-01-31 and modality CT, sorted by study date',
    statements: listStatements(
      scope,
      [f('studyDate', 'range', '2024-01-01', '2024-01-31'), f('modality', 'eq', 'CT')],
      [{ field: 'studyDate', direction: 'desc' }],
      0,
    ),
  }),
  'study-date-range-patient-id': () => ({
    title: "Date range with another filter: studyDate 20240101 to 20240131 and patientId prefix 'p00'",
    statements: listStatements(
      scope,
      [f('studyDate', 'range', '20240101', '20240131'), f('patientId', 'prefix', 'p00')],
      [],
      0,
    ),
    notes: [PAGE_ROWS_NOTE],
  }),
  count: () => {
    const filters = [f('modality', 'in', 'CT', 'MR'), f('age', 'range', '18', '65'), f('reportStatus', 'eq', 'none')];
    return {
      title: 'A count (POST exams/query/count): modality CT or MR, age 18 to 65, no report yet',
      statements: [
        renderSql('countExams', countExamsSql(db, scope, filters)!),
        renderSql('countExams of the whole list (per-organization counters)', countExamsSql(db, scope, [])!),
      ],
    };
  },
  deleted: () => ({
    title: 'The deleted-exams view: deleted after 2024-06-01, no filter',
    statements: listStatements(
      { bucketIds: scope.bucketIds, deleted: { after: new Date('2024-06-01T00:00:00.000Z') } },
      [],
      [],
      5,
    ),
    notes: ['5 matches counted', PAGE_ROWS_NOTE],
  }),
  'page-rows': () => ({
    title: "The page's rows and colour rules, for the ids found (prepared once: ids and organizations are parameters)",
    statements: [render('page rows', pageRowsQuery(db))],
  }),
};

describe("the study list's SQL (__sql__/*.sql)", () => {
  it.each(Object.keys(cases))('%s', (name) => {
    const c = cases[name]!();
    const actual = fileText(c.title, c.statements, c.notes);
    const file = path.join(SNAPSHOTS, `${name}.sql`);
    if (UPDATE) {
      fs.mkdirSync(SNAPSHOTS, { recursive: true });
      fs.writeFileSync(file, actual);
      return;
    }
    if (!fs.existsSync(file)) {
      throw new Error(`${path.relative(process.cwd(), file)} is missing: run with UPDATE_SQL_SNAPSHOTS=1`);
    }
    expect(actual, `${name}.sql: run with UPDATE_SQL_SNAPSHOTS=1 if the change is meant`).toBe(
      fs.readFileSync(file, 'utf8'),
    );
  });

  it('has a file for each case and no other', () => {
    if (UPDATE) return;
    const files = fs.readdirSync(SNAPSHOTS).filter((n) => n.endsWith('.sql'));
    expect(files.sort()).toEqual(
      Object.keys(cases)
        .map((n) => `${n}.sql`)
        .sort(),
    );
  });
});
