import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Action, GroupAccessLevel, OrgAccessLevel } from '@yyp/contracts';
import { bucketMembers, buckets, groupMembers, groups, roleMappings, roles, type AccountRow } from '../db/schema.js';
import { denialAudit, writeAudit, type AuditContext } from './audit.js';
import {
  canSee,
  effectiveActions,
  type BucketAction,
  type BucketFacts,
  type CallerAccess,
  type Membership,
} from './authz.js';
import type { Db } from './db.js';
import { errors } from './errors.js';

/** Snapshot of the caller's group levels, organization levels and role actions (one query). */
export async function loadCallerAccess(db: Db, accountId: string): Promise<CallerAccess> {
  return (await loadCallerScope(db, accountId)).access;
}

export interface CallerScope {
  access: CallerAccess;
  facts: BucketFacts[];
}

/** The group flag enablePrivacy of the bucket's group (joined as `groups`); unset is off (the default). */
const groupPrivacy = sql<boolean>`coalesce((${groups.settings}->>'enablePrivacy')::boolean, false)`;

/**
 * The three JSON columns of a caller's scope, for the account the SQL expression `accountId`
 * names: group levels, organization memberships with their facts, role actions per organization.
 */
export function scopeColumns(accountId: SQL | string) {
  return {
    groups: sql<unknown>`(select coalesce(json_agg(json_build_array(${groupMembers.groupId}, ${groupMembers.accessLevel})), '[]')
       from ${groupMembers} where ${groupMembers.accountId} = ${accountId})`,
    members: sql<unknown>`(select coalesce(json_agg(json_build_array(${bucketMembers.bucketId}, ${bucketMembers.accessLevel},
       ${buckets.groupId}, ${buckets.isPrivate}, ${groupPrivacy})), '[]')
       from ${bucketMembers} join ${buckets} on ${buckets.id} = ${bucketMembers.bucketId}
       join ${groups} on ${groups.id} = ${buckets.groupId}
       where ${bucketMembers.accountId} = ${accountId})`,
    roles: sql<unknown>`(select coalesce(json_agg(json_build_array(${roles.bucketId}, ${roles.actions})), '[]')
       from ${roleMappings} join ${roles} on ${roles.id} = ${roleMappings.roleId}
       where ${roleMappings.accountId} = ${accountId})`,
  };
}

/** Builds the scope from the three columns of scopeColumns (JSON values, or their text on some drivers). */
export function scopeFromColumns(
  accountId: string,
  row: { groups?: unknown; members?: unknown; roles?: unknown },
): CallerScope {
  const parse = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : (v ?? [])) as T;
  const groupRows = parse<[string, number][]>(row.groups);
  const memberRows = parse<[string, string, string, boolean, boolean][]>(row.members);
  const roleRows = parse<[string, string[]][]>(row.roles);
  const roleActions = new Map<string, Set<string>>();
  for (const [bucketId, actions] of roleRows) {
    const set = roleActions.get(bucketId) ?? new Set<string>();
    for (const a of actions) set.add(a);
    roleActions.set(bucketId, set);
  }
  const access: CallerAccess = {
    accountId,
    groupLevels: new Map(groupRows.map(([groupId, level]) => [groupId, level as GroupAccessLevel])),
    memberships: new Map<string, Membership>(
      memberRows.map(([bucketId, level]) => [
        bucketId,
        { orgLevel: level as OrgAccessLevel, roleActions: roleActions.get(bucketId) ?? new Set<string>() },
      ]),
    ),
  };
  const facts = memberRows.map(([id, , groupId, isPrivate, enablePrivacy]) => ({
    id,
    groupId,
    isPrivate,
    enablePrivacy,
  }));
  return { access, facts };
}

/**
 * The caller's access and the facts (group, private flag) of the organizations it belongs to, in
 * one round trip.
 */
export async function loadCallerScope(db: Db, accountId: string): Promise<CallerScope> {
  const cols = scopeColumns(accountId);
  const result = await db.execute(
    sql`select ${cols.groups} as "groups", ${cols.members} as "members", ${cols.roles} as "roles"`,
  );
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {};
  return scopeFromColumns(accountId, row);
}

/**
 * The scope read with the account when the request was authenticated (the same statement), so
 * the study list does not ask again; loaded fresh when the account row did not come from there.
 */
const requestScopes = new WeakMap<object, CallerScope>();
export function rememberScope(account: object, scope: CallerScope): void {
  requestScopes.set(account, scope);
}
export async function callerScope(db: Db, account: { id: string }): Promise<CallerScope> {
  return requestScopes.get(account) ?? loadCallerScope(db, account.id);
}

/** The columns of BucketFacts, for a select from buckets joined with its group (factsFrom). */
const factColumns = {
  id: buckets.id,
  groupId: buckets.groupId,
  isPrivate: buckets.isPrivate,
  enablePrivacy: groupPrivacy,
};
const factsFrom = (db: Db) => db.select(factColumns).from(buckets).innerJoin(groups, eq(groups.id, buckets.groupId));

export async function findBucketFacts(db: Db, bucketId: string): Promise<BucketFacts | undefined> {
  const rows = await factsFrom(db).where(eq(buckets.id, bucketId)).limit(1);
  return rows[0];
}

export async function findBucketsFacts(db: Db, bucketIds: string[]): Promise<BucketFacts[]> {
  if (bucketIds.length === 0) return [];
  return factsFrom(db).where(inArray(buckets.id, bucketIds));
}

/** Buckets in which the account holds the action (and can see). */
export async function bucketsWith(db: Db, accountId: string, action: BucketAction): Promise<string[]> {
  const access = await loadCallerAccess(db, accountId);
  const facts = await findBucketsFacts(db, [...access.memberships.keys()]);
  return facts.filter((b) => effectiveActions(access, b).has(action)).map((b) => b.id);
}

/**
 * The caller's actions in one organization named by a request body or a row (not by the route, whose
 * auth already decided): null when the caller cannot see it. Services answer 404 on null and 403
 * on a missing action.
 */
export async function actionsInBucket(
  db: Db,
  account: { id: string },
  bucketId: string,
): Promise<{ bucket: BucketFacts; actions: Set<BucketAction> } | null> {
  const scope = await callerScope(db, account);
  const bucket = scope.facts.find((b) => b.id === bucketId) ?? (await findBucketFacts(db, bucketId));
  if (!bucket || !canSee(scope.access, bucket)) return null;
  return { bucket, actions: effectiveActions(scope.access, bucket) };
}

/** A service's check of an organization named by a request body or a row (see actionsInBucket). */
export class BucketAccess {
  constructor(protected readonly db: Db) {}

  /** The caller's actions in an organization; null when it cannot see it. */
  actionsIn(
    account: { id: string },
    bucketId: string,
  ): Promise<{ bucket: BucketFacts; actions: Set<BucketAction> } | null> {
    return actionsInBucket(this.db, account, bucketId);
  }
}

/** A group setting that turns a capability off when false (unset is on, as groups are created). */
export type GroupSwitch = 'enableRegistry' | 'enableCalling';

/** Of these groups, the ones that turned `flag` off. */
export async function groupsWithFlagOff(db: Db, groupIds: readonly string[], flag: GroupSwitch): Promise<Set<string>> {
  if (groupIds.length === 0) return new Set();
  const rows = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(inArray(groups.id, [...new Set(groupIds)]), sql`${groups.settings}->>${flag} = 'false'`));
  return new Set(rows.map((r) => r.id));
}

/** The caller of a service call checked by SwitchedBucketAccess: who, and from where (for the audit trail). */
export interface BucketCaller {
  account: AccountRow;
  ctx: AuditContext;
}

/** An organization the caller may work in, with every action it holds there. */
export interface BucketGrant {
  bucket: BucketFacts;
  actions: Set<BucketAction>;
}

/**
 * The check of a capability a group can switch off (the registry's desk: enableRegistry; calling:
 * enableCalling) in an organization named by a body or a row: an organization the caller cannot
 * see is 404, a missing action 403, a group that turned the capability off 403 naming the flag;
 * every refusal is audited (permission.denied) as the route-level check does.
 */
export class SwitchedBucketAccess extends BucketAccess {
  constructor(
    db: Db,
    readonly flag: GroupSwitch,
  ) {
    super(db);
  }

  /** Passes when the caller holds one of `anyOf` there and the group keeps the capability on. */
  async require(caller: BucketCaller, bucketId: string, anyOf: readonly Action[]): Promise<BucketGrant> {
    const found = await this.actionsIn(caller.account, bucketId);
    if (!found) return this.deny(caller, bucketId, anyOf, 'notFound');
    if (!anyOf.some((a) => found.actions.has(a))) return this.deny(caller, bucketId, anyOf, 'forbidden');
    await this.requireOn(caller, bucketId, found.bucket.groupId);
    return found;
  }

  /** Refuses (403 naming the flag, audited) a call into a group that turned the capability off. */
  async requireOn(caller: BucketCaller, bucketId: string, groupId: string): Promise<void> {
    if ((await groupsWithFlagOff(this.db, [groupId], this.flag)).size > 0) {
      await this.deny(caller, bucketId, [this.flag], 'forbidden');
    }
  }

  /** Audits the refusal, then throws 404 (Organization) or 403 naming what was needed. */
  async deny(
    caller: BucketCaller,
    bucketId: string,
    needs: readonly string[],
    decision: 'notFound' | 'forbidden',
  ): Promise<never> {
    await writeAudit(this.db, caller.ctx, denialAudit(caller.account, bucketId, needs.join('|'), decision));
    throw decision === 'notFound' ? errors.notFound('Organization') : errors.forbidden(needs.join('|'));
  }

  /** The organizations where the caller holds any of `anyOf`, in groups that keep the capability on. */
  async bucketsWith(account: AccountRow, anyOf: readonly Action[]): Promise<BucketGrant[]> {
    const scope = await callerScope(this.db, account);
    const held = scope.facts
      .filter((b) => canSee(scope.access, b))
      .map((bucket) => ({ bucket, actions: effectiveActions(scope.access, bucket) }))
      .filter(({ actions }) => anyOf.some((a) => actions.has(a)));
    const off = await groupsWithFlagOff(
      this.db,
      held.map((d) => d.bucket.groupId),
      this.flag,
    );
    return held.filter((d) => !off.has(d.bucket.groupId));
  }
}
