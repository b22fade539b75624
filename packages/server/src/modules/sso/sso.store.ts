import { and, count, eq, lt, max, sql } from 'drizzle-orm';
import {
  accounts,
  groupMembers,
  groups,
  ssoAttempts,
  ssoIdentities,
  ssoProviders,
  type AccountRow,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

export type SsoProviderRow = typeof ssoProviders.$inferSelect;
export type SsoAttemptRow = typeof ssoAttempts.$inferSelect;

export async function findProvider(db: Db, groupId: string): Promise<SsoProviderRow | undefined> {
  const rows = await db.select().from(ssoProviders).where(eq(ssoProviders.groupId, groupId)).limit(1);
  return rows[0];
}

/** The enabled providers, for the login page's buttons. */
export async function enabledProviders(db: Db): Promise<{ groupId: string; label: string }[]> {
  return db
    .select({ groupId: ssoProviders.groupId, label: ssoProviders.label })
    .from(ssoProviders)
    .where(eq(ssoProviders.enabled, true))
    .orderBy(ssoProviders.label, ssoProviders.groupId);
}

export type ProviderValues = Omit<SsoProviderRow, 'groupId' | 'createdAt' | 'updatedAt'>;

export async function saveProvider(
  db: Db,
  groupId: string,
  values: ProviderValues,
  now: Date,
): Promise<SsoProviderRow> {
  const rows = await db
    .insert(ssoProviders)
    .values({ groupId, ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: ssoProviders.groupId, set: { ...values, updatedAt: now } })
    .returning();
  return rows[0]!;
}

export async function deleteProvider(db: Db, groupId: string): Promise<boolean> {
  const rows = await db
    .delete(ssoProviders)
    .where(eq(ssoProviders.groupId, groupId))
    .returning({ groupId: ssoProviders.groupId });
  return rows.length > 0;
}

/** Every group's provider with its group's name and its identities' use (platform admins). */
export async function providerStatus(db: Db) {
  const used = db
    .select({
      groupId: ssoIdentities.groupId,
      identities: count().as('identities'),
      lastLoginAt: max(ssoIdentities.lastLoginAt).as('last_login_at'),
    })
    .from(ssoIdentities)
    .groupBy(ssoIdentities.groupId)
    .as('used');
  return db
    .select({
      groupId: ssoProviders.groupId,
      groupName: groups.displayName,
      label: ssoProviders.label,
      issuer: ssoProviders.issuer,
      enabled: ssoProviders.enabled,
      allowCreate: ssoProviders.allowCreate,
      identities: sql<number>`coalesce(${used.identities}, 0)::int`,
      lastLoginAt: used.lastLoginAt,
      updatedAt: ssoProviders.updatedAt,
    })
    .from(ssoProviders)
    .innerJoin(groups, eq(groups.id, ssoProviders.groupId))
    .leftJoin(used, eq(used.groupId, ssoProviders.groupId))
    .orderBy(groups.displayName);
}

export async function insertAttempt(db: Db, row: SsoAttemptRow): Promise<void> {
  await db.insert(ssoAttempts).values(row);
}

/** Started sign-ins of a group since `since` (a bound on what an anonymous caller can store). */
export async function countAttempts(db: Db, groupId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(ssoAttempts)
    .where(and(eq(ssoAttempts.groupId, groupId), sql`${ssoAttempts.createdAt} >= ${since}`));
  return row?.n ?? 0;
}

/** Takes the attempt of a state: deleted in the same statement, so a state is good once. */
export async function takeAttempt(db: Db, stateHash: string): Promise<SsoAttemptRow | undefined> {
  const rows = await db.delete(ssoAttempts).where(eq(ssoAttempts.stateHash, stateHash)).returning();
  return rows[0];
}

export async function purgeAttempts(db: Db, before: Date): Promise<void> {
  await db.delete(ssoAttempts).where(lt(ssoAttempts.createdAt, before));
}

export async function findIdentity(db: Db, groupId: string, issuer: string, subject: string) {
  const rows = await db
    .select()
    .from(ssoIdentities)
    .where(
      and(eq(ssoIdentities.groupId, groupId), eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject)),
    )
    .limit(1);
  return rows[0];
}

/** Links an identity; false when it was linked meanwhile (the caller reads the link again). */
export async function linkIdentity(
  db: Db,
  link: { groupId: string; issuer: string; subject: string; accountId: string },
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(ssoIdentities)
    .values({ ...link, createdAt: now, lastLoginAt: now })
    .onConflictDoNothing()
    .returning({ accountId: ssoIdentities.accountId });
  return rows.length > 0;
}

export async function touchIdentity(db: Db, groupId: string, issuer: string, subject: string, now: Date) {
  await db
    .update(ssoIdentities)
    .set({ lastLoginAt: now })
    .where(
      and(eq(ssoIdentities.groupId, groupId), eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject)),
    );
}

export async function findAccount(db: Db, accountId: string): Promise<AccountRow | undefined> {
  const rows = await db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return rows[0];
}

export async function findAccountByUsername(db: Db, username: string): Promise<AccountRow | undefined> {
  const rows = await db
    .select()
    .from(accounts)
    .where(sql`lower(${accounts.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return rows[0];
}

/** The groups an account is a member of. */
export async function groupsOf(db: Db, accountId: string): Promise<string[]> {
  const rows = await db
    .select({ groupId: groupMembers.groupId })
    .from(groupMembers)
    .where(eq(groupMembers.accountId, accountId));
  return rows.map((r) => r.groupId);
}

/** Which of the candidate usernames are taken (case-insensitive). */
export async function takenUsernames(db: Db, candidates: string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set();
  const lowered = candidates.map((c) => c.toLowerCase());
  const rows = await db
    .select({ username: accounts.username })
    .from(accounts)
    .where(
      sql`lower(${accounts.username}) in (${sql.join(
        lowered.map((c) => sql`${c}`),
        sql`, `,
      )})`,
    );
  return new Set(rows.map((r) => r.username.toLowerCase()));
}

export async function addMember(db: Db, groupId: string, accountId: string, now: Date): Promise<void> {
  await db.insert(groupMembers).values({ groupId, accountId, accessLevel: 0, joinedAt: now }).onConflictDoNothing();
}

/** The account's links, with the label of each group's provider (a group without one any more shows its name). */
export async function linksOf(db: Db, accountId: string) {
  return db
    .select({
      groupId: ssoIdentities.groupId,
      label: sql<string>`coalesce(${ssoProviders.label}, ${groups.displayName})`,
      issuer: ssoIdentities.issuer,
      createdAt: ssoIdentities.createdAt,
      lastLoginAt: ssoIdentities.lastLoginAt,
    })
    .from(ssoIdentities)
    .innerJoin(groups, eq(groups.id, ssoIdentities.groupId))
    .leftJoin(ssoProviders, eq(ssoProviders.groupId, ssoIdentities.groupId))
    .where(eq(ssoIdentities.accountId, accountId))
    .orderBy(groups.displayName);
}

/** The account's link in the group, if any. */
export async function linkOf(db: Db, groupId: string, accountId: string) {
  const rows = await db
    .select({ issuer: ssoIdentities.issuer, subject: ssoIdentities.subject })
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.groupId, groupId), eq(ssoIdentities.accountId, accountId)))
    .limit(1);
  return rows[0];
}

/** Removes the account's link in the group: what it was, or undefined when there was none. */
export async function deleteLink(db: Db, groupId: string, accountId: string) {
  const rows = await db
    .delete(ssoIdentities)
    .where(and(eq(ssoIdentities.groupId, groupId), eq(ssoIdentities.accountId, accountId)))
    .returning({ issuer: ssoIdentities.issuer, subject: ssoIdentities.subject });
  return rows[0];
}
