import { and, count, desc, eq, gte, ilike, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { accounts, auditLogs, buckets, groupMembers, groups, loginThrottle } from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';
import { groupMembersPage } from '../groups/index.js';

/**
 * The group through which the caller may act on an account: one where the caller is a security
 * admin and the account a member; else any group they share (the decision then says 403); else none (404).
 */
export async function groupForAccount(db: Db, targetId: string, callerId: string): Promise<string | undefined> {
  const rows = await db
    .select({ groupId: groupMembers.groupId, level: sql<number>`caller.access_level` })
    .from(groupMembers)
    .innerJoin(
      sql`${groupMembers} as caller`,
      sql`caller.group_id = ${groupMembers.groupId} and caller.account_id = ${callerId}`,
    )
    .where(eq(groupMembers.accountId, targetId));
  return (rows.find((r) => Number(r.level) === 10) ?? rows[0])?.groupId;
}

export async function queryRealm(
  db: Db,
  groupId: string,
  q: string | undefined,
  skip: number,
  limit: number,
  now: Date,
) {
  const { rows, count: total } = await groupMembersPage(db, groupId, q, skip, limit, {
    id: accounts.id,
    username: accounts.username,
    name: accounts.name,
    disabled: accounts.disabled,
    // The latest lock of the name, at one address or at all (accounts/login-throttle.ts).
    lockedUntil: sql`(select max(${loginThrottle.lockedUntil}) from ${loginThrottle}
      where ${loginThrottle.username} = lower(${accounts.username}))`.mapWith(loginThrottle.lockedUntil),
  });
  const ids = rows.map((r) => r.id);
  const memberships = ids.length
    ? await db
        .select({
          accountId: groupMembers.accountId,
          id: groups.id,
          displayName: groups.displayName,
          accessLevel: groupMembers.accessLevel,
        })
        .from(groupMembers)
        .innerJoin(groups, eq(groups.id, groupMembers.groupId))
        .where(inArray(groupMembers.accountId, ids))
    : [];
  return {
    accounts: rows.map((r) => ({
      id: r.id,
      username: r.username,
      name: r.name,
      disabled: r.disabled,
      locked: r.lockedUntil !== null && r.lockedUntil > now,
      groups: memberships
        .filter((m) => m.accountId === r.id)
        .map(({ id, displayName, accessLevel }) => ({ id, displayName, accessLevel })),
    })),
    count: total,
  };
}

export interface AuditFilter {
  /** null: the whole platform's rows (the platform admin) */
  groupId: string | null;
  actorId?: string | undefined;
  action?: string | undefined;
  outcome?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** The rows of a group (by its current members, or about its organizations or itself), or of the platform. */
function auditScope(db: Db, groupId: string | null) {
  if (groupId === null) return undefined;
  const members = db.select({ id: groupMembers.accountId }).from(groupMembers).where(eq(groupMembers.groupId, groupId));
  const groupBuckets = db.select({ id: buckets.id }).from(buckets).where(eq(buckets.groupId, groupId));
  return or(
    inArray(auditLogs.actorId, members),
    inArray(auditLogs.bucketId, groupBuckets),
    eq(auditLogs.targetId, groupId),
  );
}

/** Audit rows, newest first, filtered. Read-only. */
export async function queryAuditLogs(db: Db, f: AuditFilter, skip: number, limit: number) {
  const where = and(
    auditScope(db, f.groupId),
    f.actorId ? eq(auditLogs.actorId, f.actorId) : undefined,
    f.action ? ilike(auditLogs.action, `${escapeLike(f.action)}%`) : undefined,
    f.outcome ? eq(auditLogs.outcome, f.outcome) : undefined,
    f.from ? gte(auditLogs.at, f.from) : undefined,
    f.to ? lte(auditLogs.at, f.to) : undefined,
  );
  const rows = await db
    .select()
    .from(auditLogs)
    .where(where)
    .orderBy(desc(auditLogs.at), desc(auditLogs.id))
    .offset(skip)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(auditLogs).where(where);
  return { rows, count: total?.n ?? 0 };
}

/** Every group of the platform, with its members and organizations counted (the platform admin). */
export async function queryPlatformGroups(db: Db, q: string | undefined, skip: number, limit: number) {
  const where = q ? ilike(groups.displayName, `%${escapeLike(q)}%`) : undefined;
  // The counts name the outer row as groups.id: drizzle leaves a lone table's columns unqualified,
  // and buckets has an id of its own.
  const rows = await db
    .select({
      id: groups.id,
      displayName: groups.displayName,
      settings: groups.settings,
      createdAt: groups.createdAt,
      memberCount: sql<number>`(select count(*) from ${groupMembers} m where m.group_id = groups.id)`.mapWith(Number),
      organizationCount: sql<number>`(select count(*) from ${buckets} b where b.group_id = groups.id)`.mapWith(Number),
    })
    .from(groups)
    .where(where)
    .orderBy(desc(groups.createdAt), groups.id)
    .offset(skip)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(groups).where(where);
  return {
    groups: rows.map((r) => ({
      id: r.id,
      displayName: r.displayName,
      memberCount: r.memberCount,
      organizationCount: r.organizationCount,
      enableStat: r.settings.enableStat === true,
      createdAt: r.createdAt.toISOString(),
    })),
    count: total?.n ?? 0,
  };
}
