import { inArray, sql } from 'drizzle-orm';
import { buckets, groups } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

export interface ScopeBucketRow {
  id: string;
  name: string;
  groupId: string;
  isPrivate: boolean;
  enablePrivacy: boolean;
}

/** The organizations of these groups, in name order. */
export async function bucketsOfGroups(db: Db, groupIds: readonly string[]): Promise<ScopeBucketRow[]> {
  if (groupIds.length === 0) return [];
  return db
    .select({
      id: buckets.id,
      name: buckets.name,
      groupId: buckets.groupId,
      isPrivate: buckets.isPrivate,
      enablePrivacy: sql<boolean>`coalesce((select (${groups.settings}->>'enablePrivacy')::boolean from ${groups} where ${groups.id} = ${buckets.groupId}), false)`,
    })
    .from(buckets)
    .where(inArray(buckets.groupId, [...groupIds]))
    .orderBy(buckets.name, buckets.id);
}

export interface ScopeGroupRow {
  id: string;
  name: string;
  /** enableStat; unset reads as on, as the other switches of a group */
  enableStat: boolean;
}

export async function groupsByIds(db: Db, groupIds: readonly string[]): Promise<ScopeGroupRow[]> {
  if (groupIds.length === 0) return [];
  return db
    .select({
      id: groups.id,
      name: groups.displayName,
      enableStat: sql<boolean>`coalesce((${groups.settings}->>'enableStat')::boolean, true)`,
    })
    .from(groups)
    .where(inArray(groups.id, [...groupIds]))
    .orderBy(groups.displayName);
}
