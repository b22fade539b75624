import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { kbItems } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** SQL of the knowledge base. Every query names its tree: one owner's items, or one organization's. */

export type KbTree = { type: 'personal'; ownerId: string } | { type: 'group'; bucketId: string };
export type KbItemRow = typeof kbItems.$inferSelect;

export const treeOf = (row: KbItemRow): KbTree =>
  row.type === 'group'
    ? { type: 'group', bucketId: row.bucketId ?? '' }
    : { type: 'personal', ownerId: row.ownerId ?? '' };

function inTree(tree: KbTree) {
  return tree.type === 'group'
    ? and(eq(kbItems.type, 'group'), eq(kbItems.bucketId, tree.bucketId))
    : and(eq(kbItems.type, 'personal'), eq(kbItems.ownerId, tree.ownerId));
}

/** A whole tree, flat, ordered by position (siblings keep their order whatever the parent). */
export function listTree(db: Db, tree: KbTree) {
  return db.select().from(kbItems).where(inTree(tree)).orderBy(asc(kbItems.position), asc(kbItems.id));
}

export async function findItem(db: Db, id: string) {
  const [row] = await db.select().from(kbItems).where(eq(kbItems.id, id)).limit(1);
  return row;
}

/**
 * The items under one parent (null: the top level) ordered by position, locked for the rest of
 * the transaction, so two moves among the same siblings run one after the other.
 */
export function lockSiblings(db: Db, tree: KbTree, parentId: string | null) {
  return db
    .select({ id: kbItems.id, position: kbItems.position })
    .from(kbItems)
    .where(and(inTree(tree), parentId === null ? isNull(kbItems.parentId) : eq(kbItems.parentId, parentId)))
    .orderBy(asc(kbItems.position), asc(kbItems.id))
    .for('update');
}

/** The ids of an item's folders up to the top level (itself first). */
export async function ancestry(db: Db, id: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive up(id, parent_id) as (
      select ${kbItems.id}, ${kbItems.parentId} from ${kbItems} where ${kbItems.id} = ${id}
      union
      select k.id, k.parent_id from ${kbItems} k join up on k.id = up.parent_id
    )
    select id from up`);
  return (result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
}

export async function insertItem(
  db: Db,
  values: Omit<typeof kbItems.$inferInsert, 'createdAt' | 'updatedAt'>,
  now: Date,
) {
  const [row] = await db
    .insert(kbItems)
    .values({ ...values, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function updateItem(
  db: Db,
  id: string,
  change: Partial<Pick<KbItemRow, 'title' | 'content' | 'parentId' | 'position'>>,
  now: Date,
) {
  const [row] = await db
    .update(kbItems)
    .set({ ...change, updatedAt: now })
    .where(eq(kbItems.id, id))
    .returning();
  return row;
}

/** Sets the positions of several siblings (a renumbering). */
export async function setPositions(db: Db, order: readonly { id: string; position: number }[]): Promise<void> {
  for (const { id, position } of order) {
    await db.update(kbItems).set({ position }).where(eq(kbItems.id, id));
  }
}

/** Deletes an item with everything under it; answers the ids deleted. */
export async function deleteSubtree(db: Db, id: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive down(id) as (
      select ${kbItems.id} from ${kbItems} where ${kbItems.id} = ${id}
      union
      select k.id from ${kbItems} k join down on k.parent_id = down.id
    )
    delete from ${kbItems} where ${kbItems.id} in (select id from down) returning ${kbItems.id} as id`);
  return (result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
}

/** Whether an organization has group items yet (the demo seed fills only empty ones). */
export async function hasGroupItems(db: Db, bucketId: string): Promise<boolean> {
  const rows = await db
    .select({ id: kbItems.id })
    .from(kbItems)
    .where(inTree({ type: 'group', bucketId }))
    .limit(1);
  return rows.length > 0;
}
