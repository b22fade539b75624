import { count, eq, lt, sql } from 'drizzle-orm';
import { wxIdentities, wxLoginAttempts, wxLoginTickets } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

export type WxIdentityRow = typeof wxIdentities.$inferSelect;
export type WxTicketRow = typeof wxLoginTickets.$inferSelect;

export async function insertAttempt(db: Db, row: typeof wxLoginAttempts.$inferInsert): Promise<void> {
  await db.insert(wxLoginAttempts).values(row);
}

/** Started logins since `since` (a bound on what an anonymous caller can store). */
export async function countAttempts(db: Db, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(wxLoginAttempts)
    .where(sql`${wxLoginAttempts.createdAt} >= ${since}`);
  return row?.n ?? 0;
}

/** Takes the attempt of a state: deleted in the same statement, so a state is good once. */
export async function takeAttempt(db: Db, stateHash: string) {
  const rows = await db.delete(wxLoginAttempts).where(eq(wxLoginAttempts.stateHash, stateHash)).returning();
  return rows[0];
}

/** Drops the attempts and tickets started before `before` (nothing can use them any more). */
export async function purge(db: Db, before: Date): Promise<void> {
  await db.delete(wxLoginAttempts).where(lt(wxLoginAttempts.createdAt, before));
  await db.delete(wxLoginTickets).where(lt(wxLoginTickets.createdAt, before));
}

export async function insertTicket(db: Db, row: WxTicketRow): Promise<void> {
  await db.insert(wxLoginTickets).values(row);
}

/** Takes a ticket: deleted in the same statement, so a ticket is good once. */
export async function takeTicket(db: Db, ticketHash: string): Promise<WxTicketRow | undefined> {
  const rows = await db.delete(wxLoginTickets).where(eq(wxLoginTickets.ticketHash, ticketHash)).returning();
  return rows[0];
}

export async function findIdentity(db: Db, subject: string): Promise<WxIdentityRow | undefined> {
  const rows = await db.select().from(wxIdentities).where(eq(wxIdentities.subject, subject)).limit(1);
  return rows[0];
}

export async function identityOf(db: Db, accountId: string): Promise<WxIdentityRow | undefined> {
  const rows = await db.select().from(wxIdentities).where(eq(wxIdentities.accountId, accountId)).limit(1);
  return rows[0];
}

/** Links an identity; false when the identity or the account is linked already (either unique key). */
export async function linkIdentity(
  db: Db,
  link: Omit<WxIdentityRow, 'createdAt' | 'lastLoginAt'>,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(wxIdentities)
    .values({ ...link, createdAt: now, lastLoginAt: now })
    .onConflictDoNothing()
    .returning({ subject: wxIdentities.subject });
  return rows.length > 0;
}

/** A login through the identity: when, and the nickname and avatar WeChat gave this time. */
export async function touchIdentity(
  db: Db,
  subject: string,
  seen: { nickname: string; headimgurl: string },
  now: Date,
): Promise<void> {
  await db
    .update(wxIdentities)
    .set({ ...seen, lastLoginAt: now })
    .where(eq(wxIdentities.subject, subject));
}

export async function unlink(db: Db, accountId: string): Promise<WxIdentityRow | undefined> {
  const rows = await db.delete(wxIdentities).where(eq(wxIdentities.accountId, accountId)).returning();
  return rows[0];
}
