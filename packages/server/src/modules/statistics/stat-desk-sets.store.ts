import type { StatColumn, StatInterval, StatRow } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import type { StatPeriod, StatResult } from './stat-source.js';
import { hospitalDaySql, periodSql } from './stat-periods.store.js';

/**
 * The one statement the front desk's, orders', money and consultations' statistics are counted
 * with. A statistic gives its "pairs": one row per thing counted (a registration, an order, a
 * ledger line, a consultation) and per organization of the request it counts for, with
 *   k      the row's key (an account, an organization, a counterpart, a modality, a product)
 *   label  the key's name ('' lets the service name organizations)
 *   id     the thing counted
 *   at     its instant (the basis of the period)
 *   side   'a' or 'b' (an order sent or received, a consultation asked or asked of)
 *   and its own fields (constant per id).
 * An order between two organizations of the request is two pairs (one per side). Rows count each
 * thing once per key (its sides merged: a = it has an 'a' pair there, b = a 'b' pair), the periods
 * and totals once overall, so medians and counts are never doubled by an order inside the scope.
 */
export interface SetsQuery {
  pairs: SQL;
  /** the pairs' own columns (constants: never user input) */
  fields: readonly string[];
  interval: StatInterval;
  columns: StatColumn[];
  /** each column's aggregate over a, b and the fields (constants: never user input) */
  aggs: Record<string, string>;
}

export type SetsLine = { g: 'k' | 'p' | 't'; k: string | null; label: string | null; p: string | null } & Record<
  string,
  string | number | null
>;

/** Counts as numbers, measures rounded to a tenth; null stays null (a median of nothing). */
export function statValue(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  return Number.isInteger(n) ? n : Math.round(n * 10) / 10;
}

export async function statSets(db: Db, q: SetsQuery): Promise<StatResult> {
  const fields = q.fields.map((f) => `, ${f}`).join('');
  const aggs = q.columns.map((c) => `, ${q.aggs[c]} as "${c}"`).join('');
  const period = periodSql(hospitalDaySql(sql`at`), q.interval);
  // The statement groups every pair twice and sorts for the percentiles: with PostgreSQL's default
  // work_mem (4 MB) a year of a group's 70,000 orders spilled both to disk (bench/statistics).
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '32MB'`);
    return tx.execute(sql`
    with pairs as (${q.pairs}),
    by_key as (
      select k, max(label) as label, id, bool_or(side = 'a') as a, bool_or(side = 'b') as b${sql.raw(fields)}
      from pairs group by k, id${sql.raw(fields)}
    ),
    by_id as (
      select id, ${period} as p, bool_or(side = 'a') as a, bool_or(side = 'b') as b${sql.raw(fields)}
      from pairs group by id, at${sql.raw(fields)}
    )
    select 'k' as g, k, max(label) as label, null::text as p${sql.raw(aggs)}
    from by_key group by k
    union all
    select case when grouping(p) = 1 then 't' else 'p' end as g, null::text, null::text, p${sql.raw(aggs)}
    from by_id group by grouping sets ((p), ())`);
  });
  return shapeSets((result as unknown as { rows: SetsLine[] }).rows, q.columns);
}

/**
 * A statistic's answer from its lines: g 'k' (a row: k, label), 'p' (a period: p) and 't' (the
 * total), each with the columns; rows by their first column, largest first, then by label.
 */
export function shapeSets(lines: readonly SetsLine[], columns: StatColumn[]): StatResult {
  const values = (l: SetsLine) => Object.fromEntries(columns.map((c) => [c, statValue(l[c])]));
  const rows: StatRow[] = lines
    .filter((l) => l.g === 'k')
    .map((l) => ({ key: l.k ?? '', label: l.label ?? '', values: values(l) }));
  const first = columns[0]!;
  rows.sort((x, y) => (y.values[first] ?? 0) - (x.values[first] ?? 0) || x.label.localeCompare(y.label));
  const periods: StatPeriod[] = lines.filter((l) => l.g === 'p').map((l) => ({ period: l.p!, values: values(l) }));
  const total = lines.find((l) => l.g === 't');
  return { columns, rows, periods, totals: total ? values(total) : {} };
}

/** `col = any(ids)` with one parameter whatever the scope holds. */
export const anyOf = (col: SQL, ids: readonly string[]) => sql`${col} = any(${textArrayLiteral(ids)}::text[])`;
/** An instant as a timestamptz parameter (the same on PGlite and PostgreSQL). */
export const instant = (d: Date) => sql`${d.toISOString()}::timestamptz`;
/**
 * The first item of a backslash list (an exam's modality CT\SR counts as CT). The separator is a
 * literal, not a parameter, so the expression may be grouped by where it is also selected.
 */
export const firstModality = (col: SQL) => sql`split_part(${col}, '\\', 1)`;
/** An account's display name (its username when it has none). */
export const accountName = (alias: string) =>
  sql.raw(`coalesce((select coalesce(nullif(x.name, ''), x.username) from accounts x where x.id = ${alias}), '')`);
