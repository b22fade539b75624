import { sql } from 'drizzle-orm';
import { buckets } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The id of the organization with this code, case ignored (codes are unique so: buckets_code_lower_idx). */
export async function bucketIdByCode(db: Db, code: string): Promise<string | undefined> {
  const rows = await db
    .select({ id: buckets.id })
    .from(buckets)
    .where(sql`lower(${buckets.code}) = ${code.toLowerCase()}`)
    .limit(1);
  return rows[0]?.id;
}
