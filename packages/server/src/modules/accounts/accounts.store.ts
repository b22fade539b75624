import crypto from 'node:crypto';
import { and, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { LOGIN_LOCKOUT_MINUTES, LOGIN_MAX_FAILURES, type Preferences } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { accounts, groupMembers, loginThrottle, type AccountRow, type NewAccountRow } from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';
import { scopeColumns, scopeFromColumns, type CallerScope } from '../../platform/access.js';

/** All SQL on accounts and login throttling lives here. */

const byIdStatements = new WeakMap<Db, ReturnType<typeof prepareById>>();
function prepareById(db: Db) {
  return db
    .select()
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('id')))
    .limit(1)
    .prepare('account_by_id');
}

export async function findAccountById(db: Db, id: string): Promise<AccountRow | undefined> {
  let statement = byIdStatements.get(db);
  if (!statement) {
    statement = prepareById(db);
    byIdStatements.set(db, statement);
  }
  const rows = await statement.execute({ id });
  return rows[0];
}

// Runs on every authenticated request (the account and its scope in one round trip): prepared
// once per database handle.
const withScopeStatements = new WeakMap<Db, ReturnType<typeof prepareWithScope>>();
function prepareWithScope(db: Db) {
  return db
    .select({ account: accounts, ...scopeColumns(sql`${accounts.id}`) })
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('id')))
    .limit(1)
    .prepare('account_with_scope');
}

/** The account and the caller scope of its memberships (platform/access.ts), or undefined. */
export async function findAccountWithScope(
  db: Db,
  id: string,
): Promise<{ account: AccountRow; scope: CallerScope } | undefined> {
  let statement = withScopeStatements.get(db);
  if (!statement) {
    statement = prepareWithScope(db);
    withScopeStatements.set(db, statement);
  }
  const [row] = await statement.execute({ id });
  return row ? { account: row.account, scope: scopeFromColumns(row.account.id, row) } : undefined;
}

export async function findAccountByUsername(db: Db, username: string): Promise<AccountRow | undefined> {
  const rows = await db
    .select()
    .from(accounts)
    .where(sql`lower(${accounts.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return rows[0];
}

export type NewAccount = Omit<NewAccountRow, 'id' | 'createdAt' | 'updatedAt'>;

/** Inserts an account; answers undefined when the username is taken (case-insensitively). */
export async function insertAccount(db: Db, values: NewAccount, now: Date): Promise<AccountRow | undefined> {
  const rows = await db
    .insert(accounts)
    .values({ ...values, id: crypto.randomUUID(), createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

export type ProfileChange = Partial<
  Pick<AccountRow, 'name' | 'avatar' | 'mobile' | 'licenseIssuer' | 'professionalTitle'>
> & { preferences?: Preferences };

export async function updateProfile(db: Db, id: string, change: ProfileChange, now: Date): Promise<AccountRow> {
  const { preferences, ...fields } = change;
  const rows = await db
    .update(accounts)
    .set({
      ...fields,
      ...(preferences ? { preferences: sql`${accounts.preferences} || ${JSON.stringify(preferences)}::jsonb` } : {}),
      updatedAt: now,
    })
    .where(eq(accounts.id, id))
    .returning();
  return rows[0]!;
}

/** Sets a new password hash and moves the token version, so every earlier token stops working. */
export async function setPassword(db: Db, id: string, passwordHash: string, now: Date): Promise<AccountRow> {
  const rows = await db
    .update(accounts)
    .set({
      passwordHash,
      passwordChangedAt: now,
      mustChangePassword: false,
      tokenVersion: sql`${accounts.tokenVersion} + 1`,
      updatedAt: now,
    })
    .where(eq(accounts.id, id))
    .returning();
  return rows[0]!;
}

/** 0 normal, 1 disabled; disabling also moves the token version. */
export async function setDisabled(db: Db, id: string, disabled: 0 | 1, now: Date): Promise<AccountRow | undefined> {
  const rows = await db
    .update(accounts)
    .set({
      disabled,
      tokenVersion: disabled ? sql`${accounts.tokenVersion} + 1` : accounts.tokenVersion,
      updatedAt: now,
    })
    .where(eq(accounts.id, id))
    .returning();
  return rows[0];
}

/**
 * Suggestions never enumerate other tenants: prefix or name matches among accounts that share a
 * group with the caller, plus an account whose username is exactly q (to invite someone by name).
 */
export async function searchAccounts(
  db: Db,
  callerId: string,
  q: string,
  limit: number,
): Promise<Pick<AccountRow, 'id' | 'username' | 'name'>[]> {
  const esc = escapeLike(q);
  const callerGroups = db
    .select({ id: groupMembers.groupId })
    .from(groupMembers)
    .where(eq(groupMembers.accountId, callerId));
  const colleagues = db
    .select({ id: groupMembers.accountId })
    .from(groupMembers)
    .where(inArray(groupMembers.groupId, callerGroups));
  return db
    .select({ id: accounts.id, username: accounts.username, name: accounts.name })
    .from(accounts)
    .where(
      and(
        eq(accounts.disabled, 0),
        or(
          and(
            or(eq(accounts.id, callerId), inArray(accounts.id, colleagues)),
            or(ilike(accounts.username, `${esc}%`), ilike(accounts.name, `%${esc}%`)),
          ),
          sql`lower(${accounts.username}) = ${q.toLowerCase()}`,
        ),
      ),
    )
    .orderBy(accounts.username)
    .limit(limit);
}

export interface ThrottleState {
  failures: number;
  lockedUntil: Date | null;
}

export async function getThrottle(db: Db, key: string): Promise<ThrottleState | undefined> {
  const rows = await db
    .select({ failures: loginThrottle.failures, lockedUntil: loginThrottle.lockedUntil })
    .from(loginThrottle)
    .where(eq(loginThrottle.username, key))
    .limit(1);
  return rows[0];
}

/**
 * Counts one failed login atomically. A lock that has run out starts the count again; the
 * LOGIN_MAX_FAILURES-th consecutive failure locks the name for LOGIN_LOCKOUT_MINUTES.
 */
export async function recordLoginFailure(db: Db, key: string, now: Date): Promise<ThrottleState> {
  const lockUntil = new Date(now.getTime() + LOGIN_LOCKOUT_MINUTES * 60_000);
  const nowIso = now.toISOString();
  const next = sql`(case when ${loginThrottle.lockedUntil} is not null and ${loginThrottle.lockedUntil} <= ${nowIso}::timestamptz then 1 else ${loginThrottle.failures} + 1 end)`;
  const rows = await db
    .insert(loginThrottle)
    .values({
      username: key,
      failures: 1,
      lockedUntil: LOGIN_MAX_FAILURES <= 1 ? lockUntil : null,
      lastFailureAt: now,
    })
    .onConflictDoUpdate({
      target: loginThrottle.username,
      set: {
        failures: next,
        lockedUntil: sql`case when ${next} >= ${LOGIN_MAX_FAILURES} then ${lockUntil.toISOString()}::timestamptz else null end`,
        lastFailureAt: now,
      },
    })
    .returning({ failures: loginThrottle.failures, lockedUntil: loginThrottle.lockedUntil });
  return rows[0]!;
}

export async function clearLoginFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.username, key));
}
