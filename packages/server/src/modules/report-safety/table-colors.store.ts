import { and, asc, eq } from 'drizzle-orm';
import { reportTableColors } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

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
