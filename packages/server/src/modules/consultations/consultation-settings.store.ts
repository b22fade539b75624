import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { buckets, groupConsultationBuckets, groupRatingConfigs, groups } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

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

export interface TargetRow {
  groupId: string;
  bucketId: string;
  name: string;
  /** the target organization's own group */
  bucketGroupId: string;
}

/** The consultation targets of these groups (in the order added), with their names. */
export async function targetsOf(db: Db, groupIds: readonly string[]): Promise<TargetRow[]> {
  if (groupIds.length === 0) return [];
  return db
    .select({
      groupId: groupConsultationBuckets.groupId,
      bucketId: groupConsultationBuckets.bucketId,
      name: buckets.name,
      bucketGroupId: buckets.groupId,
    })
    .from(groupConsultationBuckets)
    .innerJoin(buckets, eq(buckets.id, groupConsultationBuckets.bucketId))
    .where(inArray(groupConsultationBuckets.groupId, [...groupIds]))
    .orderBy(asc(groupConsultationBuckets.created), asc(buckets.name));
}

/** The groups' defaultConsultationBucketId settings (group → bucket), set ones only. */
export async function defaultTargetsOf(db: Db, groupIds: readonly string[]): Promise<Map<string, string>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .select({ id: groups.id, bucketId: sql<string | null>`${groups.settings}->>'defaultConsultationBucketId'` })
    .from(groups)
    .where(inArray(groups.id, [...groupIds]));
  return new Map(rows.filter((r) => r.bucketId).map((r) => [r.id, r.bucketId!]));
}

/** The groups of these that turned consultations on (enableConsultation). */
export async function consultationGroupsOn(db: Db, groupIds: readonly string[]): Promise<Set<string>> {
  if (groupIds.length === 0) return new Set();
  const rows = await db
    .select({ id: groups.id })
    .from(groups)
    .where(
      and(
        inArray(groups.id, [...new Set(groupIds)]),
        sql`coalesce((${groups.settings}->>'enableConsultation')::boolean, false)`,
      ),
    );
  return new Set(rows.map((r) => r.id));
}

export async function addTarget(db: Db, groupId: string, bucketId: string, now: Date): Promise<void> {
  await db.insert(groupConsultationBuckets).values({ groupId, bucketId, created: now }).onConflictDoNothing();
}

export async function removeTarget(db: Db, groupId: string, bucketId: string): Promise<boolean> {
  const gone = await db
    .delete(groupConsultationBuckets)
    .where(and(eq(groupConsultationBuckets.groupId, groupId), eq(groupConsultationBuckets.bucketId, bucketId)))
    .returning({ b: groupConsultationBuckets.bucketId });
  return gone.length > 0;
}

/** The group's rating config row, undefined before the first save. */
export async function ratingConfigOf(db: Db, groupId: string) {
  const rows = await db.select().from(groupRatingConfigs).where(eq(groupRatingConfigs.groupId, groupId)).limit(1);
  return rows[0];
}

/**
 * Saves the rating config at the version read (0: none saved yet); false when another save came
 * first (the version moved, or a first save raced another).
 */
export async function saveRatingConfig(
  db: Db,
  groupId: string,
  config: Record<string, unknown>,
  version: number,
  now: Date,
): Promise<boolean> {
  if (version === 0) {
    const out = await db
      .insert(groupRatingConfigs)
      .values({ groupId, config, version: 1, updated: now })
      .onConflictDoNothing()
      .returning({ g: groupRatingConfigs.groupId });
    return out.length > 0;
  }
  const out = await db
    .update(groupRatingConfigs)
    .set({ config, version: sql`${groupRatingConfigs.version} + 1`, updated: now })
    .where(and(eq(groupRatingConfigs.groupId, groupId), eq(groupRatingConfigs.version, version)))
    .returning({ g: groupRatingConfigs.groupId });
  return out.length > 0;
}
