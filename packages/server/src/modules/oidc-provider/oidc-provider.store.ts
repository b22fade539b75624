import { and, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { oidcGrants } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

export type OidcGrantRow = typeof oidcGrants.$inferSelect;

export async function insertGrant(db: Db, row: typeof oidcGrants.$inferInsert): Promise<void> {
  await db.insert(oidcGrants).values(row);
}

/** Takes the code once: the grant it names, marked used, or undefined (unknown, used, ended). */
export async function takeCode(db: Db, codeHash: string, now: Date): Promise<OidcGrantRow | undefined> {
  const [row] = await db
    .update(oidcGrants)
    .set({ codeUsedAt: now })
    .where(and(eq(oidcGrants.codeHash, codeHash), isNull(oidcGrants.codeUsedAt), isNull(oidcGrants.endedAt)))
    .returning();
  return row;
}

/** Whether a code was already taken: a second use ends its grant (RFC 6749 §4.1.2). */
export async function endGrantOfUsedCode(db: Db, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(oidcGrants)
    .set({ endedAt: now, refreshHash: null })
    .where(and(eq(oidcGrants.codeHash, codeHash), isNull(oidcGrants.endedAt)))
    .returning({ id: oidcGrants.id });
  return rows.length > 0;
}

/** Whether the client holds a live grant given from this session (its code was exchanged). */
export async function hasLiveGrant(db: Db, clientId: string, sessionId: string, now: Date): Promise<boolean> {
  const rows = await db
    .select({ id: oidcGrants.id })
    .from(oidcGrants)
    .where(
      and(
        eq(oidcGrants.clientId, clientId),
        eq(oidcGrants.sessionId, sessionId),
        isNull(oidcGrants.endedAt),
        isNotNull(oidcGrants.codeUsedAt),
        gt(oidcGrants.refreshExpiresAt, now),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function setRefresh(db: Db, id: string, refreshHash: string): Promise<void> {
  await db.update(oidcGrants).set({ refreshHash }).where(eq(oidcGrants.id, id));
}

/** Replaces a live refresh token by a new one (each is used once); undefined when it is not live. */
export async function rotateRefresh(
  db: Db,
  clientId: string,
  oldHash: string,
  newHash: string,
  now: Date,
): Promise<OidcGrantRow | undefined> {
  const [row] = await db
    .update(oidcGrants)
    .set({ refreshHash: newHash, previousRefreshHash: oldHash })
    .where(
      and(
        eq(oidcGrants.refreshHash, oldHash),
        eq(oidcGrants.clientId, clientId),
        isNull(oidcGrants.endedAt),
        gt(oidcGrants.refreshExpiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** A refresh token used after it was replaced ends its grant; whose grant it was, or undefined. */
export async function endGrantOfReplacedRefresh(
  db: Db,
  clientId: string,
  oldHash: string,
  now: Date,
): Promise<OidcGrantRow | undefined> {
  const [row] = await db
    .update(oidcGrants)
    .set({ endedAt: now, refreshHash: null })
    .where(
      and(eq(oidcGrants.previousRefreshHash, oldHash), eq(oidcGrants.clientId, clientId), isNull(oidcGrants.endedAt)),
    )
    .returning();
  return row;
}

export async function endGrant(db: Db, id: string, now: Date): Promise<void> {
  await db.update(oidcGrants).set({ endedAt: now, refreshHash: null }).where(eq(oidcGrants.id, id));
}

/** Ends the client's grants given from one yyp session (the viewer signed out). */
export async function endSessionGrants(db: Db, clientId: string, sessionId: string, now: Date): Promise<void> {
  await db
    .update(oidcGrants)
    .set({ endedAt: now, refreshHash: null })
    .where(and(eq(oidcGrants.clientId, clientId), eq(oidcGrants.sessionId, sessionId), isNull(oidcGrants.endedAt)));
}

/** Drops grants whose refresh token has lapsed or that ended (kept a day for the code-reuse check). */
export async function purgeGrants(db: Db, now: Date): Promise<void> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  await db.delete(oidcGrants).where(or(lt(oidcGrants.refreshExpiresAt, now), lt(oidcGrants.endedAt, dayAgo)));
}
