import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { buckets, groupExpertBuckets, groups, products, type ProductRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/* ---------- products ---------- */

/** The organization that sells a product (route auth of product changes). */
export async function ownerOfProduct(db: Db, id: string): Promise<string | undefined> {
  const rows = await db.select({ bucketId: products.bucketId }).from(products).where(eq(products.id, id)).limit(1);
  return rows[0]?.bucketId;
}

export async function findProduct(db: Db, id: string): Promise<ProductRow | undefined> {
  return (await db.select().from(products).where(eq(products.id, id)).limit(1))[0];
}

/** An organization's products of a type, in the order they were added. */
export function productsOf(db: Db, bucketId: string, type: number, activeOnly: boolean): Promise<ProductRow[]> {
  return db
    .select()
    .from(products)
    .where(
      and(eq(products.bucketId, bucketId), eq(products.type, type), activeOnly ? eq(products.active, true) : undefined),
    )
    .orderBy(asc(products.created), asc(products.id));
}

export async function insertProduct(db: Db, row: typeof products.$inferInsert): Promise<ProductRow> {
  const [out] = await db.insert(products).values(row).returning();
  return out!;
}

/** Changes a product if it is still at `version`; undefined when someone changed it since. */
export async function updateProduct(
  db: Db,
  id: string,
  version: number,
  changes: Partial<typeof products.$inferInsert>,
): Promise<ProductRow | undefined> {
  const [out] = await db
    .update(products)
    .set({ ...changes, version: sql`${products.version} + 1` })
    .where(and(eq(products.id, id), eq(products.version, version)))
    .returning();
  return out;
}

export async function deleteProduct(db: Db, id: string): Promise<boolean> {
  return (await db.delete(products).where(eq(products.id, id)).returning({ id: products.id })).length > 0;
}

/* ---------- a group's expert organizations ---------- */

export interface ExpertBucketRow {
  groupId: string;
  bucketId: string;
  bucketName: string;
  paid: boolean;
}

/** The group's expert organizations with their names, in the order added. */
export function expertBucketsOf(db: Db, groupId: string): Promise<ExpertBucketRow[]> {
  return db
    .select({
      groupId: groupExpertBuckets.groupId,
      bucketId: groupExpertBuckets.bucketId,
      bucketName: buckets.name,
      paid: groupExpertBuckets.paid,
    })
    .from(groupExpertBuckets)
    .innerJoin(buckets, eq(buckets.id, groupExpertBuckets.bucketId))
    .where(eq(groupExpertBuckets.groupId, groupId))
    .orderBy(asc(groupExpertBuckets.created), asc(buckets.name));
}

/** One expert organization of the group, undefined when the group has not chosen it. */
export async function expertBucketOf(db: Db, groupId: string, bucketId: string): Promise<ExpertBucketRow | undefined> {
  return (await expertBucketsOf(db, groupId)).find((b) => b.bucketId === bucketId);
}

/** Whether some group of these has chosen the organization as an expert organization. */
export async function isExpertOfAny(db: Db, groupIds: string[], bucketId: string): Promise<boolean> {
  if (groupIds.length === 0) return false;
  const rows = await db
    .select({ g: groupExpertBuckets.groupId })
    .from(groupExpertBuckets)
    .where(and(inArray(groupExpertBuckets.groupId, groupIds), eq(groupExpertBuckets.bucketId, bucketId)))
    .limit(1);
  return rows.length > 0;
}

export async function addExpertBucket(db: Db, groupId: string, bucketId: string, paid: boolean, now: Date) {
  await db
    .insert(groupExpertBuckets)
    .values({ groupId, bucketId, paid, created: now })
    .onConflictDoUpdate({ target: [groupExpertBuckets.groupId, groupExpertBuckets.bucketId], set: { paid } });
}

export async function removeExpertBucket(db: Db, groupId: string, bucketId: string): Promise<boolean> {
  const gone = await db
    .delete(groupExpertBuckets)
    .where(and(eq(groupExpertBuckets.groupId, groupId), eq(groupExpertBuckets.bucketId, bucketId)))
    .returning({ b: groupExpertBuckets.bucketId });
  return gone.length > 0;
}

/** An organization's id, group and name, undefined when there is none. */
export async function bucketBrief(
  db: Db,
  bucketId: string,
): Promise<{ id: string; groupId: string; name: string } | undefined> {
  const rows = await db
    .select({ id: buckets.id, groupId: buckets.groupId, name: buckets.name })
    .from(buckets)
    .where(eq(buckets.id, bucketId))
    .limit(1);
  return rows[0];
}

/**
 * Which of `bucketIds` are expert (remote reading) organizations: one some group reads from
 * (group_expert_buckets), or names as its default. Their members' permission entries are of type 2
 * (spec 000 §6: the report-source filter).
 */
export async function expertBucketsAmong(db: Db, bucketIds: string[]): Promise<Set<string>> {
  if (bucketIds.length === 0) return new Set();
  const listed = await db
    .selectDistinct({ id: groupExpertBuckets.bucketId })
    .from(groupExpertBuckets)
    .where(inArray(groupExpertBuckets.bucketId, bucketIds));
  const named = await db
    .selectDistinct({ id: sql<string>`${groups.settings}->>'defaultExpertBucketId'` })
    .from(groups)
    .where(inArray(sql`${groups.settings}->>'defaultExpertBucketId'`, bucketIds));
  return new Set([...listed, ...named].map((r) => r.id));
}

/** The group's defaultExpertBucketId setting, null when unset. */
export async function defaultExpertBucketOf(db: Db, groupId: string): Promise<string | null> {
  const rows = await db
    .select({ id: sql<string | null>`${groups.settings}->>'defaultExpertBucketId'` })
    .from(groups)
    .where(eq(groups.id, groupId))
    .limit(1);
  return rows[0]?.id ?? null;
}
