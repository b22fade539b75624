import { and, inArray, sql } from 'drizzle-orm';
import { groups } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/**
 * Of these groups, the ones whose administrators turned the registry off (group setting
 * enableRegistry false; unset is on, as groups are created).
 */
export async function groupsWithoutRegistry(db: Db, groupIds: readonly string[]): Promise<Set<string>> {
  if (groupIds.length === 0) return new Set();
  const rows = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(inArray(groups.id, [...new Set(groupIds)]), sql`${groups.settings}->>'enableRegistry' = 'false'`));
  return new Set(rows.map((r) => r.id));
}
