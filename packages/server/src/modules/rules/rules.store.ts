import crypto from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { assignRules, colorRules } from '../../db/schema.js';

type AssignValues = Omit<typeof assignRules.$inferInsert, 'id' | 'groupId' | 'createdAt'>;
type ColorValues = Omit<typeof colorRules.$inferInsert, 'id' | 'groupId' | 'createdAt'>;

export const listAssignRules = (db: Db, groupId: string) =>
  db
    .select()
    .from(assignRules)
    .where(eq(assignRules.groupId, groupId))
    .orderBy(asc(assignRules.priority), asc(assignRules.name));

export async function insertAssignRule(db: Db, groupId: string, values: AssignValues, now: Date) {
  const rows = await db
    .insert(assignRules)
    .values({ ...values, groupId, id: crypto.randomUUID(), createdAt: now })
    .returning();
  return rows[0]!;
}

export async function updateAssignRule(db: Db, groupId: string, id: string, values: AssignValues) {
  const rows = await db
    .update(assignRules)
    .set(values)
    .where(and(eq(assignRules.id, id), eq(assignRules.groupId, groupId)))
    .returning();
  return rows[0];
}

export async function deleteAssignRule(db: Db, groupId: string, id: string) {
  const rows = await db
    .delete(assignRules)
    .where(and(eq(assignRules.id, id), eq(assignRules.groupId, groupId)))
    .returning({ id: assignRules.id });
  return rows.length > 0;
}

/** Lower number first: priority 0 wins over 1. */
export const listColorRules = (db: Db, groupId: string) =>
  db
    .select()
    .from(colorRules)
    .where(eq(colorRules.groupId, groupId))
    .orderBy(asc(colorRules.priority), asc(colorRules.index));

export async function insertColorRule(db: Db, groupId: string, values: ColorValues, now: Date) {
  const rows = await db
    .insert(colorRules)
    .values({ ...values, groupId, id: crypto.randomUUID(), createdAt: now })
    .returning();
  return rows[0]!;
}

export async function updateColorRule(db: Db, groupId: string, id: string, values: ColorValues) {
  const rows = await db
    .update(colorRules)
    .set(values)
    .where(and(eq(colorRules.id, id), eq(colorRules.groupId, groupId)))
    .returning();
  return rows[0];
}

export async function deleteColorRule(db: Db, groupId: string, id: string) {
  const rows = await db
    .delete(colorRules)
    .where(and(eq(colorRules.id, id), eq(colorRules.groupId, groupId)))
    .returning({ id: colorRules.id });
  return rows.length > 0;
}
