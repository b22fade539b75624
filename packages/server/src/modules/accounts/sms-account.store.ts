import { eq } from 'drizzle-orm';
import { smsAccounts, type SmsAccountRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** SQL on sms_accounts (the platform's own SMS account of sms-account.ts): one row at most. */

const ID = 'platform';

export async function getSmsAccount(db: Db): Promise<SmsAccountRow | null> {
  const [row] = await db.select().from(smsAccounts).where(eq(smsAccounts.id, ID));
  return row ?? null;
}

export async function saveSmsAccount(db: Db, row: Omit<SmsAccountRow, 'id'>): Promise<void> {
  await db
    .insert(smsAccounts)
    .values({ id: ID, ...row })
    .onConflictDoUpdate({ target: smsAccounts.id, set: row });
}

export async function deleteSmsAccount(db: Db): Promise<boolean> {
  const gone = await db.delete(smsAccounts).where(eq(smsAccounts.id, ID)).returning({ id: smsAccounts.id });
  return gone.length > 0;
}
