import crypto from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { roleMappings, roles, type RoleRow } from '../../db/schema.js';

/** Which organization owns role `roleId`. */
export async function ownerOfRole(db: Db, roleId: string): Promise<string | undefined> {
  const rows = await db.select({ bucketId: roles.bucketId }).from(roles).where(eq(roles.id, roleId)).limit(1);
  return rows[0]?.bucketId;
}

export async function findRole(db: Db, roleId: string): Promise<RoleRow | undefined> {
  const rows = await db.select().from(roles).where(eq(roles.id, roleId)).limit(1);
  return rows[0];
}

export async function rolesOfBucket(db: Db, bucketId: string) {
  const list = await db.select().from(roles).where(eq(roles.bucketId, bucketId)).orderBy(asc(roles.name));
  const ids = list.map((r) => r.id);
  const maps = ids.length ? await db.select().from(roleMappings).where(inArray(roleMappings.roleId, ids)) : [];
  return list.map((r) => ({ ...r, memberIds: maps.filter((m) => m.roleId === r.id).map((m) => m.accountId) }));
}

export async function roleNameTaken(db: Db, bucketId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.bucketId, bucketId), sql`lower(${roles.name}) = ${name.toLowerCase()}`))
    .limit(1);
  return rows.length > 0 && rows[0]!.id !== exceptId;
}

export async function insertRole(
  db: Db,
  bucketId: string,
  name: string,
  actions: string[],
  now: Date,
): Promise<RoleRow> {
  const rows = await db
    .insert(roles)
    .values({ id: crypto.randomUUID(), bucketId, name, actions, createdAt: now, updatedAt: now })
    .returning();
  return rows[0]!;
}

export async function updateRole(db: Db, roleId: string, name: string, actions: string[], now: Date): Promise<RoleRow> {
  const rows = await db.update(roles).set({ name, actions, updatedAt: now }).where(eq(roles.id, roleId)).returning();
  return rows[0]!;
}

export async function deleteRole(db: Db, roleId: string): Promise<void> {
  await db.delete(roles).where(eq(roles.id, roleId));
}

/** Replaces the role's members with exactly these accounts. */
export async function setRoleMembers(db: Db, roleId: string, accountIds: string[]): Promise<void> {
  await db.delete(roleMappings).where(eq(roleMappings.roleId, roleId));
  if (accountIds.length) {
    await db.insert(roleMappings).values(accountIds.map((accountId) => ({ roleId, accountId })));
  }
}

export async function roleMemberIds(db: Db, roleId: string): Promise<string[]> {
  const rows = await db
    .select({ id: roleMappings.accountId })
    .from(roleMappings)
    .where(eq(roleMappings.roleId, roleId));
  return rows.map((r) => r.id);
}
