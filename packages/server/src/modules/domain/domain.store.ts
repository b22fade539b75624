import { eq } from 'drizzle-orm';
import { defaultDomainConfig, type DomainConfig, type UpdateDomainConfig } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { domains } from '../../db/schema.js';

export const DEFAULT_DOMAIN_ID = 'default';

/** Bumped at each change written by this process: cached readings of the config made before it are dropped. */
let changes = 0;

export async function getDomainConfig(db: Db, id = DEFAULT_DOMAIN_ID): Promise<DomainConfig> {
  const rows = await db.select({ config: domains.config }).from(domains).where(eq(domains.id, id)).limit(1);
  return { ...defaultDomainConfig, ...(rows[0]?.config ?? {}), id };
}

/** Merges the change into the stored config (creating the row on first write). */
export async function updateDomainConfig(
  db: Db,
  change: UpdateDomainConfig,
  now: Date,
  id = DEFAULT_DOMAIN_ID,
): Promise<DomainConfig> {
  const current = await getDomainConfig(db, id);
  const { id: _ignored, ...rest } = { ...current, ...change };
  await db
    .insert(domains)
    .values({ id, config: rest, updatedAt: now })
    .onConflictDoUpdate({ target: domains.id, set: { config: rest, updatedAt: now } });
  changes++;
  return { ...rest, id };
}

/**
 * A reader of the default domain's config for hot paths (the operation audit gate, read at every
 * audit row): a reading is kept for `maxAgeMs`, and dropped at once when this process changes the
 * config. Another instance's change is seen within `maxAgeMs`.
 */
export function cachedDomainConfig(maxAgeMs: number): (db: Db) => Promise<DomainConfig> {
  const kept = new WeakMap<Db, { at: number; changes: number; config: Promise<DomainConfig> }>();
  return (db) => {
    const now = performance.now();
    const hit = kept.get(db);
    if (hit && hit.changes === changes && now - hit.at < maxAgeMs) return hit.config;
    const config = getDomainConfig(db);
    kept.set(db, { at: now, changes, config });
    config.catch(() => kept.delete(db));
    return config;
  };
}
