import crypto from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { accounts, consultationCases, consultationFiles } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

export type CaseRow = typeof consultationCases.$inferSelect;
export type FileRow = typeof consultationFiles.$inferSelect;

export async function countCases(db: Db, consultationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(consultationCases)
    .where(eq(consultationCases.consultationId, consultationId));
  return Number(row?.n ?? 0);
}

export async function insertCase(tx: Db, c: Omit<CaseRow, 'id' | 'created'> & { created: Date }): Promise<CaseRow> {
  const [row] = await tx
    .insert(consultationCases)
    .values({ id: crypto.randomUUID(), ...c })
    .returning();
  return row!;
}

/** A case document of the consultation, undefined when it has no such case. */
export async function findCase(db: Db, consultationId: string, caseId: string): Promise<CaseRow | undefined> {
  const [row] = await db
    .select()
    .from(consultationCases)
    .where(and(eq(consultationCases.consultationId, consultationId), eq(consultationCases.id, caseId)))
    .limit(1);
  return row;
}

/** Deletes a case document and (by cascade) its files; answers the files' keys for their blobs. */
export async function deleteCase(tx: Db, consultationId: string, caseId: string): Promise<string[] | undefined> {
  const keys = await tx
    .select({ key: consultationFiles.key })
    .from(consultationFiles)
    .where(and(eq(consultationFiles.consultationId, consultationId), eq(consultationFiles.caseId, caseId)));
  const deleted = await tx
    .delete(consultationCases)
    .where(and(eq(consultationCases.consultationId, consultationId), eq(consultationCases.id, caseId)))
    .returning({ id: consultationCases.id });
  return deleted.length > 0 ? keys.map((k) => k.key) : undefined;
}

/** How many files a case (caseId) or the result (null) holds. */
export async function countFiles(db: Db, consultationId: string, caseId: string | null): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(consultationFiles)
    .where(
      and(
        eq(consultationFiles.consultationId, consultationId),
        caseId === null ? isNull(consultationFiles.caseId) : eq(consultationFiles.caseId, caseId),
      ),
    );
  return Number(row?.n ?? 0);
}

/** The file recorded under an upload key, in any consultation. */
export async function fileByKey(db: Db, key: string): Promise<FileRow | undefined> {
  const [row] = await db.select().from(consultationFiles).where(eq(consultationFiles.key, key)).limit(1);
  return row;
}

/** A file of the consultation, undefined when it has no such file. */
export async function findFile(db: Db, consultationId: string, fileId: string): Promise<FileRow | undefined> {
  const [row] = await db
    .select()
    .from(consultationFiles)
    .where(and(eq(consultationFiles.consultationId, consultationId), eq(consultationFiles.id, fileId)))
    .limit(1);
  return row;
}

/** Records a file once per key; undefined when the key was recorded meanwhile. */
export async function insertFile(
  tx: Db,
  f: Omit<FileRow, 'id' | 'created'> & { created: Date },
): Promise<FileRow | undefined> {
  const [row] = await tx
    .insert(consultationFiles)
    .values({ id: crypto.randomUUID(), ...f })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function completeFile(tx: Db, id: string, size: number): Promise<FileRow> {
  const [row] = await tx
    .update(consultationFiles)
    .set({ uploadStatus: 'completed', size })
    .where(eq(consultationFiles.id, id))
    .returning();
  return row!;
}

export async function deleteFile(tx: Db, consultationId: string, fileId: string): Promise<FileRow | undefined> {
  const [row] = await tx
    .delete(consultationFiles)
    .where(and(eq(consultationFiles.consultationId, consultationId), eq(consultationFiles.id, fileId)))
    .returning();
  return row;
}

/** The display name of an account (name, else username), '' when it is gone. */
export async function accountName(db: Db, id: string | null): Promise<string> {
  if (!id) return '';
  const [row] = await db
    .select({ name: accounts.name, username: accounts.username })
    .from(accounts)
    .where(eq(accounts.id, id))
    .limit(1);
  return row ? row.name || row.username : '';
}
