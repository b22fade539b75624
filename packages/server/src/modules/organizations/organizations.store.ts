import crypto from 'node:crypto';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import {
  accounts,
  bucketDictionary,
  bucketMembers,
  buckets,
  roleMappings,
  roles,
  type BucketRow,
} from '../../db/schema.js';

export async function findBucket(db: Db, bucketId: string): Promise<BucketRow | undefined> {
  const rows = await db.select().from(buckets).where(eq(buckets.id, bucketId)).limit(1);
  return rows[0];
}

export async function bucketsOfGroup(db: Db, groupId: string): Promise<BucketRow[]> {
  return db.select().from(buckets).where(eq(buckets.groupId, groupId)).orderBy(asc(buckets.name));
}

export async function bucketsByIds(db: Db, ids: string[]): Promise<BucketRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(buckets).where(inArray(buckets.id, ids)).orderBy(asc(buckets.name));
}

export async function memberCounts(db: Db, bucketIds: string[]): Promise<Map<string, number>> {
  if (bucketIds.length === 0) return new Map();
  const rows = await db
    .select({ bucketId: bucketMembers.bucketId, n: count() })
    .from(bucketMembers)
    .where(inArray(bucketMembers.bucketId, bucketIds))
    .groupBy(bucketMembers.bucketId);
  return new Map(rows.map((r) => [r.bucketId, r.n]));
}

export async function codeTaken(db: Db, code: string, exceptId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: buckets.id })
    .from(buckets)
    .where(sql`lower(${buckets.code}) = ${code.toLowerCase()}`)
    .limit(1);
  return rows.length > 0 && rows[0]!.id !== exceptId;
}

export async function insertBucket(
  db: Db,
  values: Pick<BucketRow, 'groupId' | 'name'> &
    Partial<Pick<BucketRow, 'code' | 'logo' | 'isPrivate' | 'planKind' | 'planQuota' | 'planExpiresAt'>>,
  now: Date,
): Promise<BucketRow> {
  const rows = await db
    .insert(buckets)
    .values({ ...values, id: crypto.randomUUID(), createdAt: now, updatedAt: now })
    .returning();
  return rows[0]!;
}

export async function updateBucket(
  db: Db,
  bucketId: string,
  change: Partial<BucketRow>,
  now: Date,
): Promise<BucketRow> {
  const rows = await db
    .update(buckets)
    .set({ ...change, updatedAt: now })
    .where(eq(buckets.id, bucketId))
    .returning();
  return rows[0]!;
}

export async function deleteBucket(db: Db, bucketId: string): Promise<void> {
  await db.delete(buckets).where(eq(buckets.id, bucketId));
}

export async function listBucketMembers(db: Db, bucketId: string) {
  const rows = await db
    .select({
      accountId: accounts.id,
      username: accounts.username,
      name: accounts.name,
      accessLevel: bucketMembers.accessLevel,
    })
    .from(bucketMembers)
    .innerJoin(accounts, eq(accounts.id, bucketMembers.accountId))
    .where(eq(bucketMembers.bucketId, bucketId))
    .orderBy(asc(accounts.username));
  const mappings = await db
    .select({ roleId: roleMappings.roleId, accountId: roleMappings.accountId })
    .from(roleMappings)
    .innerJoin(roles, eq(roles.id, roleMappings.roleId))
    .where(eq(roles.bucketId, bucketId));
  return rows.map((r) => ({
    ...r,
    roleIds: mappings.filter((m) => m.accountId === r.accountId).map((m) => m.roleId),
  }));
}

export async function addBucketMembers(db: Db, bucketId: string, accountIds: string[], accessLevel: string, now: Date) {
  if (accountIds.length === 0) return [];
  const rows = await db
    .insert(bucketMembers)
    .values(accountIds.map((accountId) => ({ bucketId, accountId, accessLevel, joinedAt: now })))
    .onConflictDoUpdate({ target: [bucketMembers.bucketId, bucketMembers.accountId], set: { accessLevel } })
    .returning({ accountId: bucketMembers.accountId });
  return rows.map((r) => r.accountId);
}

export async function setBucketMemberLevel(db: Db, bucketId: string, accountId: string, accessLevel: string) {
  const rows = await db
    .update(bucketMembers)
    .set({ accessLevel })
    .where(and(eq(bucketMembers.bucketId, bucketId), eq(bucketMembers.accountId, accountId)))
    .returning({ accountId: bucketMembers.accountId });
  return rows.length > 0;
}

/** Removes the member and its role mappings in this organization. */
export async function removeBucketMember(db: Db, bucketId: string, accountId: string): Promise<boolean> {
  const bucketRoles = db.select({ id: roles.id }).from(roles).where(eq(roles.bucketId, bucketId));
  await db
    .delete(roleMappings)
    .where(and(eq(roleMappings.accountId, accountId), inArray(roleMappings.roleId, bucketRoles)));
  const rows = await db
    .delete(bucketMembers)
    .where(and(eq(bucketMembers.bucketId, bucketId), eq(bucketMembers.accountId, accountId)))
    .returning({ accountId: bucketMembers.accountId });
  return rows.length > 0;
}

export async function bucketMembersAmong(db: Db, bucketId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: bucketMembers.accountId })
    .from(bucketMembers)
    .where(and(eq(bucketMembers.bucketId, bucketId), inArray(bucketMembers.accountId, ids)));
  return new Set(rows.map((r) => r.id));
}

export async function listDictionary(db: Db, bucketId: string, kind: string) {
  return db
    .select()
    .from(bucketDictionary)
    .where(and(eq(bucketDictionary.bucketId, bucketId), eq(bucketDictionary.kind, kind)))
    .orderBy(asc(bucketDictionary.sort), asc(bucketDictionary.name));
}

export async function insertDictionaryItem(
  db: Db,
  values: { bucketId: string; kind: string; name: string; data: Record<string, unknown>; sort: number },
  now: Date,
) {
  const rows = await db
    .insert(bucketDictionary)
    .values({ ...values, id: crypto.randomUUID(), createdAt: now })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

export async function updateDictionaryItem(
  db: Db,
  bucketId: string,
  kind: string,
  id: string,
  change: { name: string; data: Record<string, unknown>; sort?: number | undefined },
) {
  const rows = await db
    .update(bucketDictionary)
    .set({ name: change.name, data: change.data, ...(change.sort !== undefined ? { sort: change.sort } : {}) })
    .where(and(eq(bucketDictionary.id, id), eq(bucketDictionary.bucketId, bucketId), eq(bucketDictionary.kind, kind)))
    .returning();
  return rows[0];
}

export async function deleteDictionaryItem(db: Db, bucketId: string, kind: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(bucketDictionary)
    .where(and(eq(bucketDictionary.id, id), eq(bucketDictionary.bucketId, bucketId), eq(bucketDictionary.kind, kind)))
    .returning({ id: bucketDictionary.id });
  return rows.length > 0;
}

/** The organization's row, locked until the caller's transaction ends. */
export async function lockBucket(db: Db, bucketId: string): Promise<BucketRow | undefined> {
  const rows = await db.select().from(buckets).where(eq(buckets.id, bucketId)).for('update').limit(1);
  return rows[0];
}

export async function setBucketPlan(
  db: Db,
  bucketId: string,
  plan: { planKind: string | null; planQuota: number | null; planExpiresAt: Date | null },
  now: Date,
): Promise<void> {
  await db
    .update(buckets)
    .set({ ...plan, updatedAt: now })
    .where(eq(buckets.id, bucketId));
}
