import { eq, inArray } from 'drizzle-orm';
import type { GroupAccessLevel, OrgAccessLevel } from '@yyp/contracts';
import { bucketMembers, buckets, groupMembers, roleMappings, roles } from '../db/schema.js';
import { effectiveActions, type BucketAction, type BucketFacts, type CallerAccess, type Membership } from './authz.js';
import type { Db } from './db.js';

/** Snapshot of the caller's group levels, organization levels and role actions (three queries). */
export async function loadCallerAccess(db: Db, accountId: string): Promise<CallerAccess> {
  const [groupRows, memberRows, roleRows] = await Promise.all([
    db
      .select({ groupId: groupMembers.groupId, level: groupMembers.accessLevel })
      .from(groupMembers)
      .where(eq(groupMembers.accountId, accountId)),
    db
      .select({ bucketId: bucketMembers.bucketId, level: bucketMembers.accessLevel })
      .from(bucketMembers)
      .where(eq(bucketMembers.accountId, accountId)),
    db
      .select({ bucketId: roles.bucketId, actions: roles.actions })
      .from(roleMappings)
      .innerJoin(roles, eq(roles.id, roleMappings.roleId))
      .where(eq(roleMappings.accountId, accountId)),
  ]);
  const groupLevels = new Map(groupRows.map((r) => [r.groupId, r.level as GroupAccessLevel]));
  const roleActions = new Map<string, Set<string>>();
  for (const r of roleRows) {
    const set = roleActions.get(r.bucketId) ?? new Set<string>();
    for (const a of r.actions) set.add(a);
    roleActions.set(r.bucketId, set);
  }
  const memberships = new Map<string, Membership>(
    memberRows.map((m) => [
      m.bucketId,
      { orgLevel: m.level as OrgAccessLevel, roleActions: roleActions.get(m.bucketId) ?? new Set<string>() },
    ]),
  );
  return { accountId, groupLevels, memberships };
}

export async function findBucketFacts(db: Db, bucketId: string): Promise<BucketFacts | undefined> {
  const rows = await db
    .select({ id: buckets.id, groupId: buckets.groupId, isPrivate: buckets.isPrivate })
    .from(buckets)
    .where(eq(buckets.id, bucketId))
    .limit(1);
  return rows[0];
}

export async function findBucketsFacts(db: Db, bucketIds: string[]): Promise<BucketFacts[]> {
  if (bucketIds.length === 0) return [];
  return db
    .select({ id: buckets.id, groupId: buckets.groupId, isPrivate: buckets.isPrivate })
    .from(buckets)
    .where(inArray(buckets.id, bucketIds));
}

/** Buckets in which the account holds the action (and can see). */
export async function bucketsWith(db: Db, accountId: string, action: BucketAction): Promise<string[]> {
  const access = await loadCallerAccess(db, accountId);
  const facts = await findBucketsFacts(db, [...access.memberships.keys()]);
  return facts.filter((b) => effectiveActions(access, b).has(action)).map((b) => b.id);
}
