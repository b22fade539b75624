import { inArray, lt, sql } from 'drizzle-orm';
import { rateLimits } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** One fixed-window counter of table rate_limits (rate-limit.ts decides the keys and windows). */
export interface RateCounterHit {
  key: string;
  windowStart: Date;
  expiresAt: Date;
}

/**
 * Counts one hit on each counter in one upsert: a counter whose stored window is another one
 * starts again at 1. Answers each counter's hits in its current window.
 */
export async function incrementRateCounters(db: Db, hits: RateCounterHit[]): Promise<{ key: string; hits: number }[]> {
  if (hits.length === 0) return [];
  return db
    .insert(rateLimits)
    .values(hits.map((h) => ({ key: h.key, windowStart: h.windowStart, hits: 1, expiresAt: h.expiresAt })))
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${rateLimits.windowStart} = excluded.window_start then ${rateLimits.hits} + 1 else 1 end`,
        windowStart: sql`excluded.window_start`,
        expiresAt: sql`excluded.expires_at`,
      },
    })
    .returning({ key: rateLimits.key, hits: rateLimits.hits });
}

/** The stored counters of these keys, whatever their window. */
export async function readRateCounters(
  db: Db,
  keys: string[],
): Promise<{ key: string; hits: number; windowStart: Date }[]> {
  return db
    .select({ key: rateLimits.key, hits: rateLimits.hits, windowStart: rateLimits.windowStart })
    .from(rateLimits)
    .where(inArray(rateLimits.key, keys));
}

/** Drops counters whose window ended before `now`. */
export async function purgeRateCounters(db: Db, now: Date): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.expiresAt, now));
}
