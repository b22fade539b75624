import crypto from 'node:crypto';
import { and, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { GroupSettings } from '@yyp/contracts';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { Db } from '../../platform/db.js';
import {
  accounts,
  bucketMembers,
  buckets,
  groupMembers,
  groups,
  roleMappings,
  roles,
  type GroupRow,
} from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';

export async function findGroup(db: Db, groupId: string): Promise<GroupRow | undefined> {
  const rows = await db.select().from(groups).where(eq(groups.id, groupId)).limit(1);
  return rows[0];
}

export async function groupNameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: groups.id })
    .from(groups)
    .where(sql`lower(${groups.displayName}) = ${name.toLowerCase()}`)
    .limit(1);
  return rows.length > 0 && rows[0]!.id !== exceptId;
}

export async function insertGroup(
  db: Db,
  values: { id?: string | undefined; displayName: string; settings: GroupSettings; createdBy: string },
  now: Date,
): Promise<GroupRow | undefined> {
  const rows = await db
    .insert(groups)
    .values({ ...values, id: values.id ?? crypto.randomUUID(), createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

export async function updateGroup(
  db: Db,
  groupId: string,
  change: Partial<Pick<GroupRow, 'displayName' | 'settings' | 'attributes'>>,
  now: Date,
): Promise<GroupRow> {
  const rows = await db
    .update(groups)
    .set({ ...change, updatedAt: now })
    .where(eq(groups.id, groupId))
    .returning();
  return rows[0]!;
}

export async function deleteGroup(db: Db, groupId: string): Promise<void> {
  await db.delete(groups).where(eq(groups.id, groupId));
}

export async function groupCounts(db: Db, groupId: string): Promise<{ members: number; organizations: number }> {
  const [m] = await db.select({ n: count() }).from(groupMembers).where(eq(groupMembers.groupId, groupId));
  const [o] = await db.select({ n: count() }).from(buckets).where(eq(buckets.groupId, groupId));
  return { members: m?.n ?? 0, organizations: o?.n ?? 0 };
}

export async function groupsOfAccount(db: Db, accountId: string): Promise<(GroupRow & { accessLevel: number })[]> {
  const rows = await db
    .select({ group: groups, accessLevel: groupMembers.accessLevel })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(eq(groupMembers.accountId, accountId))
    .orderBy(groups.displayName);
  return rows.map((r) => ({ ...r.group, accessLevel: r.accessLevel }));
}

export async function countGroupsOfAccount(db: Db, accountId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(groupMembers).where(eq(groupMembers.accountId, accountId));
  return row?.n ?? 0;
}

export async function addGroupMembers(
  db: Db,
  groupId: string,
  accountIds: string[],
  accessLevel: number,
  now: Date,
): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .insert(groupMembers)
    .values(accountIds.map((accountId) => ({ groupId, accountId, accessLevel, joinedAt: now })))
    .onConflictDoNothing()
    .returning({ accountId: groupMembers.accountId });
  return rows.map((r) => r.accountId);
}

export async function findGroupMember(db: Db, groupId: string, accountId: string) {
  const rows = await db
    .select()
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.accountId, accountId)))
    .limit(1);
  return rows[0];
}

export async function countAdmins(db: Db, groupId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.accessLevel, 1)));
  return row?.n ?? 0;
}

export async function setGroupMemberLevel(db: Db, groupId: string, accountId: string, accessLevel: number) {
  await db
    .update(groupMembers)
    .set({ accessLevel })
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.accountId, accountId)));
}

/** Removes a member from the group and from every organization and role of the group. */
export async function removeGroupMember(db: Db, groupId: string, accountId: string): Promise<void> {
  const groupBuckets = db.select({ id: buckets.id }).from(buckets).where(eq(buckets.groupId, groupId));
  const groupRoles = db.select({ id: roles.id }).from(roles).where(inArray(roles.bucketId, groupBuckets));
  await db
    .delete(roleMappings)
    .where(and(eq(roleMappings.accountId, accountId), inArray(roleMappings.roleId, groupRoles)));
  await db
    .delete(bucketMembers)
    .where(and(eq(bucketMembers.accountId, accountId), inArray(bucketMembers.bucketId, groupBuckets)));
  await db.delete(groupMembers).where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.accountId, accountId)));
}

/**
 * A page of the group's members whose username or name contains `q`, by username, and the count of
 * all that match; `columns` (of accounts and groupMembers) says what each row holds.
 */
export async function groupMembersPage<T extends SelectedFields>(
  db: Db,
  groupId: string,
  q: string | undefined,
  skip: number,
  limit: number,
  columns: T,
) {
  const match = q
    ? or(ilike(accounts.username, `%${escapeLike(q)}%`), ilike(accounts.name, `%${escapeLike(q)}%`))
    : undefined;
  const where = and(eq(groupMembers.groupId, groupId), match);
  // Typed by hand: drizzle cannot type a join's rows for a selection not known yet (inner joins: no column turns nullable).
  const rows = (await db
    .select(columns as SelectedFields)
    .from(groupMembers)
    .innerJoin(accounts, eq(accounts.id, groupMembers.accountId))
    .where(where)
    .orderBy(accounts.username)
    .offset(skip)
    .limit(limit)) as SelectResultFields<T>[];
  const [total] = await db
    .select({ n: count() })
    .from(groupMembers)
    .innerJoin(accounts, eq(accounts.id, groupMembers.accountId))
    .where(where);
  return { rows, count: total?.n ?? 0 };
}

export function queryGroupMembers(db: Db, groupId: string, q: string | undefined, skip: number, limit: number) {
  return groupMembersPage(db, groupId, q, skip, limit, {
    accountId: accounts.id,
    username: accounts.username,
    name: accounts.name,
    accessLevel: groupMembers.accessLevel,
    disabled: accounts.disabled,
    joinedAt: groupMembers.joinedAt,
  });
}

/** Accounts that exist and are enabled, among the given ids. */
export async function existingAccountIds(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(inArray(accounts.id, ids), eq(accounts.disabled, 0)));
  return rows.map((r) => r.id);
}

/** Which of the ids are members of the group. */
export async function membersAmong(db: Db, groupId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: groupMembers.accountId })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.accountId, ids)));
  return new Set(rows.map((r) => r.id));
}
