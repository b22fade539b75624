import type { QuickSearchCriteria } from '@yyp/contracts';
import { and, asc, count, eq, max, ne, sql } from 'drizzle-orm';
import { customSearches } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** SQL of the quick searches: always scoped to the owner account. */

export async function listSearches(db: Db, accountId: string, type: string) {
  return db
    .select()
    .from(customSearches)
    .where(and(eq(customSearches.accountId, accountId), eq(customSearches.type, type)))
    .orderBy(asc(customSearches.sort), asc(customSearches.createdAt), asc(customSearches.id));
}

export async function findSearch(db: Db, accountId: string, id: string) {
  const [row] = await db
    .select()
    .from(customSearches)
    .where(and(eq(customSearches.accountId, accountId), eq(customSearches.id, id)))
    .limit(1);
  return row;
}

export async function countSearches(db: Db, accountId: string, type: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(customSearches)
    .where(and(eq(customSearches.accountId, accountId), eq(customSearches.type, type)));
  return Number(row?.n ?? 0);
}

export async function titleTaken(db: Db, accountId: string, type: string, title: string, exceptId?: string) {
  const [row] = await db
    .select({ id: customSearches.id })
    .from(customSearches)
    .where(
      and(
        eq(customSearches.accountId, accountId),
        eq(customSearches.type, type),
        sql`lower(${customSearches.title}) = ${title.toLowerCase()}`,
        exceptId ? ne(customSearches.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function nextSort(db: Db, accountId: string, type: string): Promise<number> {
  const [row] = await db
    .select({ m: max(customSearches.sort) })
    .from(customSearches)
    .where(and(eq(customSearches.accountId, accountId), eq(customSearches.type, type)));
  return row?.m === null || row?.m === undefined ? 0 : Number(row.m) + 1;
}

export interface NewSearch {
  id: string;
  accountId: string;
  type: string;
  title: string;
  /** a default's key (today, yesterday, last7Days), shown translated; null once renamed */
  titleKey?: string | null;
  criteria: QuickSearchCriteria;
  sort: number;
}

/**
 * Inserts searches; a title the account already has (a concurrent call) is skipped. Answers the
 * rows inserted.
 */
export async function insertSearches(db: Db, rows: NewSearch[], now: Date) {
  if (rows.length === 0) return [];
  return db
    .insert(customSearches)
    .values(rows.map((r) => ({ ...r, createdAt: now, updatedAt: now })))
    .onConflictDoNothing()
    .returning();
}

/** Locks the account's searches of a type for the rest of the transaction (the "one must remain" check). */
export async function lockSearches(db: Db, accountId: string, type: string): Promise<number> {
  const rows = await db
    .select({ id: customSearches.id })
    .from(customSearches)
    .where(and(eq(customSearches.accountId, accountId), eq(customSearches.type, type)))
    .for('update');
  return rows.length;
}

export async function updateSearch(
  db: Db,
  accountId: string,
  id: string,
  change: Partial<Pick<NewSearch, 'title' | 'titleKey' | 'criteria' | 'sort'>>,
  now: Date,
) {
  const [row] = await db
    .update(customSearches)
    .set({ ...change, updatedAt: now })
    .where(and(eq(customSearches.accountId, accountId), eq(customSearches.id, id)))
    .returning();
  return row;
}

export async function deleteSearch(db: Db, accountId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(customSearches)
    .where(and(eq(customSearches.accountId, accountId), eq(customSearches.id, id)))
    .returning({ id: customSearches.id });
  return rows.length > 0;
}
