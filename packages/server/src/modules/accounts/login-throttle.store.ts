import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { LOGIN_LOCKOUT_MINUTES, LOGIN_MAX_FAILURES } from '@yyp/contracts';
import { loginThrottle } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/**
 * The login lockout (spec 000 §9: 5 failures, 30 minutes), counted so that nobody can lock
 * another person out at will (README "Security"):
 * - per name and client address: the LOGIN_MAX_FAILURES-th consecutive failure from one address
 *   locks that name at that address for LOGIN_LOCKOUT_MINUTES (a success there resets the count);
 * - per name across all addresses (row '*'): NAME_MAX_FAILURES failures, each within
 *   LOGIN_LOCKOUT_MINUTES of the one before, lock the name for LOGIN_LOCKOUT_MINUTES at every
 *   address except the account's known addresses: those it signed in from in the last
 *   KNOWN_ADDRESS_DAYS days. Distributed guessing stops; the owner keeps signing in where they work.
 */
export const NAME_MAX_FAILURES = 20;
export const KNOWN_ADDRESS_DAYS = 90;
export const ALL_ADDRESSES = '*';

export interface ThrottleState {
  failures: number;
  lockedUntil: Date | null;
}

export interface LoginGate {
  /** when set, the attempt is refused until then */
  lockedUntil: Date | null;
  /** the lock that applies: this address's, or the name's across addresses */
  lock: 'address' | 'name' | null;
  /** the name signed in from this address within KNOWN_ADDRESS_DAYS */
  known: boolean;
}

/** Whether a login of `username` from `address` may be tried now (one indexed read). */
export async function loginGate(db: Db, username: string, address: string, now: Date): Promise<LoginGate> {
  const rows = await db
    .select({
      address: loginThrottle.address,
      lockedUntil: loginThrottle.lockedUntil,
      lastSuccessAt: loginThrottle.lastSuccessAt,
    })
    .from(loginThrottle)
    .where(and(eq(loginThrottle.username, username), inArray(loginThrottle.address, [address, ALL_ADDRESSES])));
  const pair = rows.find((r) => r.address === address && address !== ALL_ADDRESSES);
  const name = rows.find((r) => r.address === ALL_ADDRESSES);
  const known = !!pair?.lastSuccessAt && pair.lastSuccessAt.getTime() > now.getTime() - KNOWN_ADDRESS_DAYS * 86_400_000;
  if (pair?.lockedUntil && pair.lockedUntil > now) return { lockedUntil: pair.lockedUntil, lock: 'address', known };
  if (name?.lockedUntil && name.lockedUntil > now && !known) {
    return { lockedUntil: name.lockedUntil, lock: 'name', known };
  }
  return { lockedUntil: null, lock: null, known };
}

/**
 * Counts one failed login for the name at the address and across addresses, atomically (one
 * statement); answers the lock now in force for this attempt's address, if any.
 */
export async function recordLoginFailure(db: Db, username: string, address: string, now: Date): Promise<ThrottleState> {
  const t = loginThrottle;
  const lockUntil = new Date(now.getTime() + LOGIN_LOCKOUT_MINUTES * 60_000);
  const nowIso = now.toISOString();
  const staleIso = new Date(now.getTime() - LOGIN_LOCKOUT_MINUTES * 60_000).toISOString();
  const isName = sql`excluded.address = ${ALL_ADDRESSES}`;
  // A lock that has run out starts the count again; so does, for the name, a pause of 30 minutes.
  const restart = sql`(${t.lockedUntil} is not null and ${t.lockedUntil} <= ${nowIso}::timestamptz)
    or (${isName} and (${t.lastFailureAt} is null or ${t.lastFailureAt} < ${staleIso}::timestamptz))`;
  const next = sql`(case when ${restart} then 1 else ${t.failures} + 1 end)`;
  const max = sql`(case when ${isName} then ${NAME_MAX_FAILURES}::int else ${LOGIN_MAX_FAILURES}::int end)`;
  const first = (limit: number) => ({ failures: 1, lockedUntil: limit <= 1 ? lockUntil : null, lastFailureAt: now });
  const rows = await db
    .insert(t)
    .values([
      { username, address, ...first(LOGIN_MAX_FAILURES) },
      { username, address: ALL_ADDRESSES, ...first(NAME_MAX_FAILURES) },
    ])
    .onConflictDoUpdate({
      target: [t.username, t.address],
      set: {
        failures: next,
        lockedUntil: sql`case when ${next} >= ${max} then ${lockUntil.toISOString()}::timestamptz else null end`,
        lastFailureAt: now,
      },
    })
    .returning({ address: t.address, failures: t.failures, lockedUntil: t.lockedUntil });
  const pair = rows.find((r) => r.address === address)!;
  return { failures: pair.failures, lockedUntil: pair.lockedUntil };
}

/** A successful login: this address's count starts again and the address becomes known. */
export async function recordLoginSuccess(db: Db, username: string, address: string, now: Date): Promise<void> {
  await db
    .insert(loginThrottle)
    .values({ username, address, failures: 0, lockedUntil: null, lastSuccessAt: now })
    .onConflictDoUpdate({
      target: [loginThrottle.username, loginThrottle.address],
      set: { failures: 0, lockedUntil: null, lastSuccessAt: now },
    });
}

/** Unlocks a name everywhere (the security admin's unlock, a password reset); known addresses stay. */
export async function clearLoginFailures(db: Db, username: string): Promise<void> {
  await db.delete(loginThrottle).where(and(eq(loginThrottle.username, username), isNull(loginThrottle.lastSuccessAt)));
  await db.update(loginThrottle).set({ failures: 0, lockedUntil: null }).where(eq(loginThrottle.username, username));
}

/**
 * Drops rows that neither lock, nor counted a failure in the last day, nor remember a known
 * address: a failure count is forgotten a day after its last failure.
 */
export async function purgeLoginThrottle(db: Db, now: Date): Promise<void> {
  const stale = new Date(now.getTime() - 86_400_000);
  const forgotten = new Date(now.getTime() - KNOWN_ADDRESS_DAYS * 86_400_000);
  const t = loginThrottle;
  await db
    .delete(t)
    .where(
      and(
        or(isNull(t.lockedUntil), lt(t.lockedUntil, now)),
        or(isNull(t.lastFailureAt), lt(t.lastFailureAt, stale)),
        or(isNull(t.lastSuccessAt), lt(t.lastSuccessAt, forgotten)),
      ),
    );
}
