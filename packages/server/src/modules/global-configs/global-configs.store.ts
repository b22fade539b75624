import { inArray, sql } from 'drizzle-orm';
import type { GlobalConfigKey } from '@yyp/contracts';
import { globalConfigs } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The stored values of the keys (a key never set is absent). */
export async function readConfigs(db: Db, keys: readonly GlobalConfigKey[]): Promise<Map<string, unknown>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: globalConfigs.key, value: globalConfigs.value })
    .from(globalConfigs)
    .where(inArray(globalConfigs.key, [...keys]));
  return new Map(rows.map((r) => [r.key, r.value]));
}

/** Sets (value) or clears (null) each key, in one statement each, inside the caller's transaction. */
export async function writeConfigs(
  db: Db,
  change: ReadonlyArray<[GlobalConfigKey, unknown]>,
  accountId: string,
  now: Date,
): Promise<void> {
  const set = change.filter(([, value]) => value !== null);
  const cleared = change.filter(([, value]) => value === null).map(([key]) => key);
  if (set.length > 0) {
    await db
      .insert(globalConfigs)
      .values(set.map(([key, value]) => ({ key, value, updatedBy: accountId, updatedAt: now })))
      .onConflictDoUpdate({
        target: globalConfigs.key,
        set: { value: sql`excluded.value`, updatedBy: accountId, updatedAt: now },
      });
  }
  if (cleared.length > 0) await db.delete(globalConfigs).where(inArray(globalConfigs.key, cleared));
}
