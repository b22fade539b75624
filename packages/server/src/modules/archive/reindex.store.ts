import { inArray } from 'drizzle-orm';
import { buckets, instances } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The reindex's reads (reindex.ts): which organizations exist, which files are indexed. */

/** The id of every organization (bucket). */
export async function allBucketIds(db: Db): Promise<Set<string>> {
  return new Set((await db.select({ id: buckets.id }).from(buckets)).map((b) => b.id));
}

/** Those of `keys` that an instance row references as its file. */
export async function indexedBlobKeys(db: Db, keys: string[]): Promise<Set<string>> {
  return new Set(
    (await db.select({ key: instances.blobKey }).from(instances).where(inArray(instances.blobKey, keys))).map(
      (r) => r.key,
    ),
  );
}
