import { eq } from 'drizzle-orm';
import { accounts, type AccountRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The signature's queries: it is a column of the account (accounts.signature). */

/** The account row as stored now. */
export async function accountNow(db: Db, accountId: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  return row;
}

/** The account row, locked until the transaction ends (the signature is about to change). */
export async function lockAccount(tx: Db, accountId: string): Promise<AccountRow | undefined> {
  const [row] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for('update');
  return row;
}

/** Sets (or, with null, clears) the account's signature file; answers the updated row. */
export async function setSignature(
  tx: Db,
  accountId: string,
  key: string | null,
  now: Date,
): Promise<AccountRow | undefined> {
  const [updated] = await tx
    .update(accounts)
    .set({ signature: key, updatedAt: now })
    .where(eq(accounts.id, accountId))
    .returning();
  return updated;
}
