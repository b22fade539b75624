import { and, asc, eq, sql } from 'drizzle-orm';
import { buckets, coExams, exams, reportTableColors, reports } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { anyText } from '../../platform/sql.js';

/** All SQL of report table colours (CONVENTIONS 7); every statement is scoped to the group. */

export type TableColorRow = typeof reportTableColors.$inferSelect;
type Values = Omit<typeof reportTableColors.$inferInsert, 'id' | 'groupId' | 'createdAt'>;

/** The group of a colour, for the route's authorization (undefined: no such colour, 404). */
export async function groupOfTableColor(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ groupId: reportTableColors.groupId })
    .from(reportTableColors)
    .where(eq(reportTableColors.id, id));
  return row?.groupId;
}

export async function listTableColors(db: Db, groupId: string): Promise<TableColorRow[]> {
  return db
    .select()
    .from(reportTableColors)
    .where(eq(reportTableColors.groupId, groupId))
    .orderBy(asc(reportTableColors.priority), asc(reportTableColors.createdAt), asc(reportTableColors.id));
}

export async function insertTableColor(
  db: Db,
  row: Values & { id: string; groupId: string },
  now: Date,
): Promise<TableColorRow> {
  const [out] = await db
    .insert(reportTableColors)
    .values({ ...row, createdAt: now })
    .returning();
  return out!;
}

export async function updateTableColor(
  db: Db,
  groupId: string,
  id: string,
  values: Values,
): Promise<TableColorRow | undefined> {
  const [out] = await db
    .update(reportTableColors)
    .set(values)
    .where(and(eq(reportTableColors.id, id), eq(reportTableColors.groupId, groupId)))
    .returning();
  return out;
}

export async function deleteTableColor(db: Db, groupId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(reportTableColors)
    .where(and(eq(reportTableColors.id, id), eq(reportTableColors.groupId, groupId)))
    .returning({ id: reportTableColors.id });
  return rows.length > 0;
}

/**
 * The colours of several groups at once, for painting a list page: a handful of rows through
 * report_table_colors_group_idx, in the order reportColorOf takes them.
 */
export async function tableColorsOfGroups(db: Db, groupIds: readonly string[]): Promise<TableColorRow[]> {
  if (groupIds.length === 0) return [];
  return db
    .select()
    .from(reportTableColors)
    .where(anyText(reportTableColors.groupId, groupIds))
    .orderBy(asc(reportTableColors.priority), asc(reportTableColors.createdAt), asc(reportTableColors.id));
}

/** The colours of the groups of these organizations (a list's scope), read alongside its page. */
export async function tableColorsOfBuckets(db: Db, bucketIds: readonly string[]): Promise<TableColorRow[]> {
  if (bucketIds.length === 0) return [];
  return db
    .select()
    .from(reportTableColors)
    .where(
      sql`${reportTableColors.groupId} in (select ${buckets.groupId} from ${buckets} where ${anyText(buckets.id, bucketIds)})`,
    )
    .orderBy(asc(reportTableColors.priority), asc(reportTableColors.createdAt), asc(reportTableColors.id));
}

/**
 * The positive-finding flag of the reports of these exams (a co-written exam reads its primary's
 * report); exams without a report, or whose flag is unset, are left out.
 */
export async function positiveOfExams(db: Db, examIds: readonly string[]): Promise<Map<string, boolean>> {
  if (examIds.length === 0) return new Map();
  const rows = await db
    .select({ examId: exams.id, positive: sql<string | null>`${reports.content}->>'positive'` })
    .from(exams)
    .leftJoin(coExams, eq(coExams.examId, exams.id))
    .innerJoin(reports, eq(reports.id, sql`coalesce(${coExams.primaryExamId}, ${exams.id})`))
    .where(anyText(exams.id, examIds));
  const out = new Map<string, boolean>();
  for (const r of rows) if (r.positive === 'true' || r.positive === 'false') out.set(r.examId, r.positive === 'true');
  return out;
}
