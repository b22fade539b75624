import { eq } from 'drizzle-orm';
import { defaultDomainConfig, type DomainConfig, type UpdateDomainConfig } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { domains } from '../../db/schema.js';

export const DEFAULT_DOMAIN_ID = 'default';

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
  return { ...rest, id };
}
