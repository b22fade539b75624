import crypto from 'node:crypto';
import { and, eq, getTableColumns, ilike, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Preferences } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { accounts, domains, groupMembers, sessions, type AccountRow, type NewAccountRow } from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';
import { scopeColumns, scopeFromColumns, type CallerScope } from '../../platform/access.js';
import { preparedRows } from '../../platform/pglite-prepared.js';
import { DEFAULT_DOMAIN_ID } from '../domain/index.js';

/** SQL on accounts and their sessions (the lockout: login-throttle.ts; rate limits: rate-limit.ts). */

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

// Runs on every authenticated request (the account, its scope, the token's session and the
// domain's inactivity limit in one round trip): one constant text, run as the named prepared
// statement account_with_session on both databases (platform/pglite-prepared.ts: on PGlite,
// drizzle's prepare parsed and planned the text again at every call, the larger part of a
// signed-in request's cost). Parameters: $1 account id, $2 session id (the token's jti), $3 domain.
const accountColumns = Object.entries(getTableColumns(accounts));
let withSessionText: string | undefined;
export function accountWithSessionStatement(): string {
  if (withSessionText) return withSessionText;
  const scope = scopeColumns(sql`${accounts.id}`);
  const { sql: text, params } = new PgDialect().sqlToQuery(
    sql`select ${sql.join(
      accountColumns.map(([key, column]) => sql`${column} as ${sql.identifier(`a.${key}`)}`),
      sql`, `,
    )},
      ${scope.groups} as "groups", ${scope.members} as "members", ${scope.roles} as "roles",
      ${sessions.id} as "sessionId", ${sessions.lastSeenAt} as "lastSeenAt", ${sessions.revokedAt} as "revokedAt",
      (select (${domains.config} ->> 'maxInactiveMinutes')::int from ${domains}
        where ${domains.id} = ${sql.raw('$3')}) as "maxInactiveMinutes"
      from ${accounts}
      left join ${sessions} on ${sessions.id} = ${sql.raw('$2')} and ${sessions.accountId} = ${accounts.id}
      where ${accounts.id} = ${sql.raw('$1')}
      limit 1`,
  );
  if (params.length > 0) throw new Error('the sign-in statement must be constant');
  return (withSessionText = text);
}

/** The account of a row of accountWithSessionStatement, each column decoded as drizzle does. */
function accountFromRow(row: Record<string, unknown>): AccountRow {
  const account: Record<string, unknown> = {};
  for (const [key, column] of accountColumns) {
    const value = row[`a.${key}`];
    account[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return account as AccountRow;
}

export interface SessionFacts {
  /** the session row exists (the token was issued by this platform and not yet purged) */
  found: boolean;
  lastSeenAt: Date | null;
  revokedAt: Date | null;
  /** the domain's maxInactiveMinutes (0: no limit) */
  maxInactiveMinutes: number;
}

/** The account, the caller scope of its memberships (platform/access.ts) and the token's session. */
export async function findAccountWithSession(
  db: Db,
  id: string,
  jti: string,
): Promise<{ account: AccountRow; scope: CallerScope; session: SessionFacts } | undefined> {
  const [row] = await preparedRows<Record<string, unknown>>(db, 'account_with_session', accountWithSessionStatement(), [
    id,
    jti,
    DEFAULT_DOMAIN_ID,
  ]);
  if (!row) return undefined;
  const date = (v: Date | string | null) => (v === null ? null : v instanceof Date ? v : new Date(v));
  const account = accountFromRow(row);
  return {
    account,
    scope: scopeFromColumns(account.id, row),
    session: {
      found: row.sessionId !== null,
      lastSeenAt: date(row.lastSeenAt as Date | string | null),
      revokedAt: date(row.revokedAt as Date | string | null),
      maxInactiveMinutes: Number(row.maxInactiveMinutes ?? 0) || 0,
    },
  };
}

export async function insertSession(
  db: Db,
  values: { id: string; accountId: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(sessions).values({
    id: values.id,
    accountId: values.accountId,
    createdAt: values.now,
    lastSeenAt: values.now,
    expiresAt: values.expiresAt,
  });
}

/** Records activity, at most once per `everyMs` per session (a no-op when recorded recently). */
export async function touchSession(db: Db, id: string, now: Date, everyMs: number): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.id, id), lt(sessions.lastSeenAt, new Date(now.getTime() - everyMs))));
}

/** Ends a session: its token answers TokenExpiredError from now on, on every instance. */
export async function revokeSession(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

/** Drops sessions whose token has expired (their tokens are refused on expiry anyway). */
export async function purgeExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
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

/** Obliges the account to replace its password at its next login (an admin's one-time password). */
export async function setMustChangePassword(db: Db, id: string): Promise<void> {
  await db.update(accounts).set({ mustChangePassword: true }).where(eq(accounts.id, id));
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

/** Unlocking a name lives with the lockout; re-exported for the security admin's unlock. */
export { clearLoginFailures } from './login-throttle.store.js';
