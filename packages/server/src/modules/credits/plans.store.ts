import { and, asc, eq, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { buckets, type BucketRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/**
 * Every dried private organization (a platform admin's plans/dried), by name, at most `limit`: no
 * plan, expired, or its quota used up — the archive's uploadBlock rule for one more study, in SQL.
 */
export function driedPrivateBuckets(db: Db, now: Date, limit: number): Promise<BucketRow[]> {
  return db
    .select()
    .from(buckets)
    .where(
      and(
        eq(buckets.isPrivate, true),
        or(
          isNull(buckets.planKind),
          and(isNotNull(buckets.planExpiresAt), lte(buckets.planExpiresAt, now)),
          and(isNotNull(buckets.planQuota), sql`${buckets.planUsed} + 1 > ${buckets.planQuota}`),
        ),
      ),
    )
    .orderBy(asc(buckets.name))
    .limit(limit);
}
