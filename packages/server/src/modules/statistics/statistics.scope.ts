import { ACTION_CATALOGUE, GROUP_ACCESS_LEVELS, type Action, type StatAction } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { callerScope } from '../../platform/access.js';
import { canSee, effectiveActions, type CallerAccess } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { bucketsOfGroups, groupsByIds, type ScopeBucketRow, type ScopeGroupRow } from './statistics-scope.store.js';

const STAT_ACTIONS = new Set<string>(ACTION_CATALOGUE.statistics);

/** One organization the caller may count, with the statistics actions it holds there. */
export interface ScopeBucket extends ScopeBucketRow {
  actions: Set<Action>;
}

export interface StatScope {
  access: CallerAccess;
  /** the organizations of the caller's groups where it holds at least one statistics action */
  buckets: ScopeBucket[];
  /** every organization of the caller's groups it can see (named without the action: 403, not 404) */
  seen: ScopeBucket[];
  groups: (ScopeGroupRow & { isAdmin: boolean })[];
}

/**
 * The actions the caller holds in an organization, as statistics read them: its own (roles,
 * organization level) and, for an admin of the organization's group, every statistics action
 * (department heads and group admins run their departments from these numbers).
 */
export function statActionsIn(access: CallerAccess, bucket: ScopeBucketRow): Set<Action> {
  const out = new Set<Action>([...effectiveActions(access, bucket)].filter((a) => a !== 'bucket_read') as Action[]);
  if (canSee(access, bucket) && access.groupLevels.get(bucket.groupId) === GROUP_ACCESS_LEVELS.admin) {
    for (const a of STAT_ACTIONS) out.add(a as Action);
  }
  return out;
}

/** The caller's groups, their organizations and what it holds in each (two statements). */
export async function loadStatScope(db: Db, account: AccountRow): Promise<StatScope> {
  const { access } = await callerScope(db, account);
  const groupIds = [...access.groupLevels.keys()];
  const [rows, groupRows] = await Promise.all([bucketsOfGroups(db, groupIds), groupsByIds(db, groupIds)]);
  const seen = rows.filter((b) => canSee(access, b)).map((b) => ({ ...b, actions: statActionsIn(access, b) }));
  const buckets = seen.filter((b) => [...b.actions].some((a) => STAT_ACTIONS.has(a)));
  const groups = groupRows.map((g) => ({
    ...g,
    isAdmin: access.groupLevels.get(g.id) === GROUP_ACCESS_LEVELS.admin,
  }));
  return { access, buckets, seen, groups };
}

/**
 * The organizations a statistic counts (statistics.service.ts): with bucketIds, each of them, each
 * seen (404 otherwise) and holding the action (403); with groupId, the group's organizations where
 * the caller holds it, the group seen (404) with enableStat on (403 StatisticsDisabled); with
 * neither, every organization where it holds it. An answer may be empty (a caller without the
 * action anywhere gets 403).
 */
export function pickBuckets(
  scope: StatScope,
  action: StatAction,
  ask: { bucketIds?: string[] | undefined; groupId?: string | undefined },
): ScopeBucket[] {
  let pool = scope.buckets;
  let visible = scope.seen;
  if (ask.groupId !== undefined) {
    const group = scope.groups.find((g) => g.id === ask.groupId);
    if (!group) throw errors.notFound('Group');
    if (!group.enableStat) throw new AppError('StatisticsDisabled', 'Statistics are turned off for this group');
    pool = pool.filter((b) => b.groupId === group.id);
    visible = visible.filter((b) => b.groupId === group.id);
  }
  if (ask.bucketIds !== undefined && ask.bucketIds.length > 0) {
    const wanted = new Set(ask.bucketIds);
    const seen = visible.filter((b) => wanted.has(b.id));
    if (seen.length < wanted.size) throw errors.notFound('Organization');
    if (seen.some((b) => !b.actions.has(action))) throw errors.forbidden(action);
    return seen;
  }
  const held = pool.filter((b) => b.actions.has(action));
  if (held.length === 0) throw errors.forbidden(action);
  return held;
}
