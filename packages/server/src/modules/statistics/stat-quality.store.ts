import type { StatDimension, StatInterval } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { hospitalDaySql, periodSql } from './stat-periods.store.js';

/**
 * The quality statistics counted straight from the grades (statistics/quality, groups/{id}/quality):
 * report grades (report_quality) by their grading time, the last change of the grade (updated_at),
 * of live exams. The doctor of a grade is the report's writer (its creator), whose work the grade
 * judges. The statistics are served by the rollups (sources.quality.ts, qg and qi); this is the
 * direct count their oracle compares with, and one doctor's items are counted here.
 */

export interface QualityFilter {
  bucketIds: readonly string[];
  start: Date;
  end: Date;
  modality?: string | undefined;
  doctorId?: string | undefined;
}

const instant = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Grades of the filter (alias q: report_quality, r: reports, e: exams; it.item: each item named). */
function gradedFrom(f: QualityFilter, items = false): SQL {
  const parts: SQL[] = [
    sql`q.bucket_id = any(${textArrayLiteral(f.bucketIds)}::text[])`,
    sql`q.updated_at >= ${instant(f.start)}`,
    sql`q.updated_at < ${instant(f.end)}`,
    sql`e.deleted_time is null`,
  ];
  if (f.modality) parts.push(sql`split_part(e.modality, ${'\\'}, 1) = ${f.modality}`);
  if (f.doctorId) parts.push(sql`r.creator_id = ${f.doctorId}`);
  return sql`from report_quality q
    join exams e on e.id = q.report_id
    left join reports r on r.id = q.report_id
    ${items ? sql`cross join lateral jsonb_array_elements_text(q.unsatisfactory_items) as it(item)` : sql``}
    where ${sql.join(parts, sql` and `)}`;
}

export interface GradeCountRow {
  /** the row's key (level, writer, organization; '' for none) or the period */
  key: string;
  level: string;
  /** grades */
  n: number;
  /** unsatisfactory items named */
  items: number;
}

/** Grades per key of the dimension (not 'item') and level. */
export async function gradesBy(db: Db, f: QualityFilter, by: Exclude<StatDimension, 'item'>): Promise<GradeCountRow[]> {
  const key = by === 'level' ? sql`q.level` : by === 'doctor' ? sql`coalesce(r.creator_id, '')` : sql`q.bucket_id`;
  const result = await db.execute(sql`
    select ${key} as "key", q.level as "level", count(*)::int as n,
      coalesce(sum(jsonb_array_length(q.unsatisfactory_items)), 0)::int as items
    ${gradedFrom(f)}
    group by 1, 2`);
  return rowsOf<GradeCountRow>(result).map((r) => ({ ...r, n: Number(r.n), items: Number(r.items) }));
}

/** Grades per period (hospital days of the grading time) and level. */
export async function gradesByPeriod(db: Db, f: QualityFilter, interval: StatInterval): Promise<GradeCountRow[]> {
  const period = periodSql(hospitalDaySql(sql`q.updated_at`), interval);
  const result = await db.execute(sql`
    select ${period} as "key", q.level as "level", count(*)::int as n,
      coalesce(sum(jsonb_array_length(q.unsatisfactory_items)), 0)::int as items
    ${gradedFrom(f)}
    group by 1, 2`);
  return rowsOf<GradeCountRow>(result).map((r) => ({ ...r, n: Number(r.n), items: Number(r.items) }));
}

/**
 * Grades per unsatisfactory item and level: n the grades naming the item, items the times it is
 * named (an item written twice in one grade counts twice there).
 */
export async function gradesByItem(db: Db, f: QualityFilter): Promise<GradeCountRow[]> {
  const result = await db.execute(sql`
    select it.item as "key", q.level as "level", count(distinct q.report_id)::int as n, count(*)::int as items
    ${gradedFrom(f, true)}
    group by 1, 2`);
  return rowsOf<GradeCountRow>(result).map((r) => ({ ...r, n: Number(r.n), items: Number(r.items) }));
}
