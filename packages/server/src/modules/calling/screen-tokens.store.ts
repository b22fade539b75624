import crypto from 'node:crypto';
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { accounts, screenTokens, type ScreenTokenRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** A screen token is kept as its SHA-256 only; the token itself is shown once, when issued. */
export const hashScreenToken = (token: string) => crypto.createHash('sha256').update(token, 'utf8').digest('hex');

/** last_used_at is written at most this often per token (a screen reads on every event). */
const LAST_USED_GRAIN_MS = 60_000;

/** The organization that owns a screen token. */
export async function ownerOfScreenToken(db: Db, id: string): Promise<string | undefined> {
  const rows = await db
    .select({ bucketId: screenTokens.bucketId })
    .from(screenTokens)
    .where(eq(screenTokens.id, id))
    .limit(1);
  return rows[0]?.bucketId;
}

export type ScreenTokenView = ScreenTokenRow & { createdByName: string };

const withCreator = (db: Db) =>
  db
    .select({ row: screenTokens, createdByName: sql<string>`coalesce(${accounts.name}, '')` })
    .from(screenTokens)
    .leftJoin(accounts, eq(accounts.id, screenTokens.createdBy));

export async function screenTokensOf(db: Db, bucketId: string): Promise<ScreenTokenView[]> {
  const rows = await withCreator(db)
    .where(eq(screenTokens.bucketId, bucketId))
    .orderBy(desc(screenTokens.created), desc(screenTokens.id));
  return rows.map((r) => ({ ...r.row, createdByName: r.createdByName }));
}

export async function findScreenToken(db: Db, id: string): Promise<ScreenTokenView | undefined> {
  const rows = await withCreator(db).where(eq(screenTokens.id, id)).limit(1);
  return rows[0] ? { ...rows[0].row, createdByName: rows[0].createdByName } : undefined;
}

export async function countLiveScreenTokens(db: Db, bucketId: string): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(screenTokens)
    .where(and(eq(screenTokens.bucketId, bucketId), isNull(screenTokens.revokedAt)));
  return rows[0]?.n ?? 0;
}

export async function insertScreenToken(db: Db, values: typeof screenTokens.$inferInsert): Promise<void> {
  await db.insert(screenTokens).values(values);
}

/** Revokes a token (once: a revoked token keeps its first revocation time). */
export async function revokeScreenToken(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(screenTokens)
    .set({ revokedAt: at })
    .where(and(eq(screenTokens.id, id), isNull(screenTokens.revokedAt)));
}

/**
 * The organization a screen token may read, or undefined when it is unknown or revoked. Records
 * its use (at most once a minute).
 */
export async function verifyScreenToken(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<{ bucketId: string; tokenId: string } | undefined> {
  if (!token || token.length > 256) return undefined;
  const rows = await db
    .select({ id: screenTokens.id, bucketId: screenTokens.bucketId })
    .from(screenTokens)
    .where(and(eq(screenTokens.tokenHash, hashScreenToken(token)), isNull(screenTokens.revokedAt)))
    .limit(1);
  const found = rows[0];
  if (!found) return undefined;
  await db
    .update(screenTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(screenTokens.id, found.id),
        or(isNull(screenTokens.lastUsedAt), lt(screenTokens.lastUsedAt, new Date(now.getTime() - LAST_USED_GRAIN_MS))),
      ),
    );
  return { bucketId: found.bucketId, tokenId: found.id };
}
