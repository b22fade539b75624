import crypto from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { modalities } from '../../db/schema.js';

export const findModalityByAe = async (db: Db, aeTitle: string) =>
  (await db.select().from(modalities).where(eq(modalities.aeTitle, aeTitle)).limit(1))[0];

export const listModalities = (db: Db, bucketId: string) =>
  db.select().from(modalities).where(eq(modalities.bucketId, bucketId)).orderBy(asc(modalities.aeTitle));

export async function insertModality(
  db: Db,
  bucketId: string,
  v: { aeTitle: string; host: string | null; name: string; port?: number | null },
  now: Date,
) {
  const rows = await db
    .insert(modalities)
    .values({ id: crypto.randomUUID(), bucketId, ...v, createdAt: now })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

export async function deleteModality(db: Db, bucketId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(modalities)
    .where(and(eq(modalities.id, id), eq(modalities.bucketId, bucketId)))
    .returning({ id: modalities.id });
  return rows.length > 0;
}
