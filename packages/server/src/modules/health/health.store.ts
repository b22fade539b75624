import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';

/** Answers when the database answers a trivial query; throws otherwise. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
