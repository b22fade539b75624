import { and, eq, lt, sql } from 'drizzle-orm';
import { verificationCodes } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** SQL on verification_codes (the SMS codes of mobile.service.ts). */

export type CodeRow = typeof verificationCodes.$inferSelect;

/** Stores a new code for (account, purpose), replacing the one before (its tries go with it). */
export async function replaceCode(db: Db, row: Omit<CodeRow, 'tries'>): Promise<void> {
  await db
    .insert(verificationCodes)
    .values({ ...row, tries: 0 })
    .onConflictDoUpdate({
      target: [verificationCodes.accountId, verificationCodes.purpose],
      set: {
        id: row.id,
        mobile: row.mobile,
        codeHash: row.codeHash,
        tries: 0,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
      },
    });
}

/** The account's code for this purpose, locked until the transaction ends (one check at a time). */
export async function lockCode(db: Db, accountId: string, purpose: string): Promise<CodeRow | undefined> {
  const rows = await db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.accountId, accountId), eq(verificationCodes.purpose, purpose)))
    .for('update');
  return rows[0];
}

/** Counts a wrong try; answers the tries made so far. */
export async function countWrongTry(db: Db, id: string): Promise<number> {
  const rows = await db
    .update(verificationCodes)
    .set({ tries: sql`${verificationCodes.tries} + 1` })
    .where(eq(verificationCodes.id, id))
    .returning({ tries: verificationCodes.tries });
  return rows[0]?.tries ?? 0;
}

export async function deleteCode(db: Db, id: string): Promise<void> {
  await db.delete(verificationCodes).where(eq(verificationCodes.id, id));
}

export async function purgeExpiredCodes(db: Db, now: Date): Promise<void> {
  await db.delete(verificationCodes).where(lt(verificationCodes.expiresAt, now));
}
