import { and, eq, gt, isNull } from 'drizzle-orm';
import crypto from 'node:crypto';
import { uploadCodes, type UploadCodeRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import type { CodePurpose } from './upload-codes.js';

export async function insertCode(
  db: Db,
  row: {
    codeHash: string;
    purpose: CodePurpose;
    accountId: string;
    examId?: string;
    bucketId?: string;
    expiresAt: Date;
  },
  now: Date,
): Promise<UploadCodeRow> {
  const [inserted] = await db
    .insert(uploadCodes)
    .values({ id: crypto.randomUUID(), ...row, createdAt: now })
    .returning();
  return inserted!;
}

export async function findCodeByHash(db: Db, codeHash: string): Promise<UploadCodeRow | undefined> {
  return (await db.select().from(uploadCodes).where(eq(uploadCodes.codeHash, codeHash)).limit(1))[0];
}

/** Locks a code row for the rest of the transaction (serializes uploads through one code). */
export async function lockCode(db: Db, id: string): Promise<UploadCodeRow | undefined> {
  return (await db.select().from(uploadCodes).where(eq(uploadCodes.id, id)).for('update'))[0];
}

/** Marks a code used if it still is unused and unexpired; false when another call got there first. */
export async function useCode(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(uploadCodes)
    .set({ usedAt: now })
    .where(and(eq(uploadCodes.id, id), isNull(uploadCodes.usedAt), gt(uploadCodes.expiresAt, now)))
    .returning({ id: uploadCodes.id });
  return rows.length === 1;
}

/** Ends the open codes of one purpose an account issued (a new code replaces them). */
export async function endOpenCodes(db: Db, accountId: string, purpose: CodePurpose, now: Date): Promise<void> {
  await db
    .update(uploadCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(uploadCodes.accountId, accountId),
        eq(uploadCodes.purpose, purpose),
        isNull(uploadCodes.usedAt),
        gt(uploadCodes.expiresAt, now),
      ),
    );
}
