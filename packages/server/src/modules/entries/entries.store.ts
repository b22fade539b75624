import { and, eq, lt } from 'drizzle-orm';
import { entryNonces } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/**
 * Records the group's nonce as used. False when it was used before: the primary key decides, so of
 * two requests racing with one nonce exactly one records it.
 */
export async function consumeNonce(
  db: Db,
  row: { groupId: string; nonce: string; usedAt: Date; expiresAt: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(entryNonces)
    .values(row)
    .onConflictDoNothing({ target: [entryNonces.groupId, entryNonces.nonce] })
    .returning({ nonce: entryNonces.nonce });
  return inserted.length === 1;
}

/** Drops the nonces whose entries are out of the time window anyway. */
export async function purgeNonces(db: Db, now: Date): Promise<void> {
  await db.delete(entryNonces).where(lt(entryNonces.expiresAt, now));
}

/** Whether the nonce of the group is recorded (tests). */
export async function nonceUsed(db: Db, groupId: string, nonce: string): Promise<boolean> {
  const rows = await db
    .select({ nonce: entryNonces.nonce })
    .from(entryNonces)
    .where(and(eq(entryNonces.groupId, groupId), eq(entryNonces.nonce, nonce)))
    .limit(1);
  return rows.length === 1;
}
