import { asc, eq } from 'drizzle-orm';
import { buckets, type BucketRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** Every private organization (a platform admin's plans/dried), by name; at most `limit`. */
export function privateBuckets(db: Db, limit: number): Promise<BucketRow[]> {
  return db.select().from(buckets).where(eq(buckets.isPrivate, true)).orderBy(asc(buckets.name)).limit(limit);
}
