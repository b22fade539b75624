import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  accounts,
  bucketMembers,
  buckets,
  consultationCases,
  consultationExams,
  consultationFiles,
  consultationLinks,
  consultationMembers,
  consultations,
  consultationTraces,
  type ConsultationRow,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/* ---------- the consultation ---------- */

export async function insertConsultation(tx: Db, row: typeof consultations.$inferInsert): Promise<ConsultationRow> {
  const [out] = await tx.insert(consultations).values(row).returning();
  return out!;
}

/** Changes the consultation: its version goes up and `updated` is `now`. */
export async function updateConsultation(
  tx: Db,
  id: string,
  changes: Partial<typeof consultations.$inferInsert>,
  now: Date,
): Promise<ConsultationRow> {
  const [out] = await tx
    .update(consultations)
    .set({ ...changes, updated: now, version: sql`${consultations.version} + 1` })
    .where(eq(consultations.id, id))
    .returning();
  return out!;
}

export async function deleteConsultation(tx: Db, id: string): Promise<void> {
  await tx.delete(consultations).where(eq(consultations.id, id));
}

/** The keys of the consultation's stored files (its cases' and its result's), for the blob clean-up. */
export async function fileKeysOf(db: Db, id: string): Promise<string[]> {
  const rows = await db
    .select({ key: consultationFiles.key })
    .from(consultationFiles)
    .where(eq(consultationFiles.consultationId, id));
  return rows.map((r) => r.key);
}

/* ---------- traces ---------- */

export async function addTrace(
  tx: Db,
  t: { consultationId: string; action: string; accountId: string | null; detail: Record<string, unknown>; at: Date },
): Promise<void> {
  await tx.insert(consultationTraces).values({ id: traceId(), ...t });
}

let traceSeq = 0n;
/** A trace id that sorts after this process's earlier ones (traces of one instant keep their order). */
function traceId(): string {
  const tick = process.hrtime.bigint() * 1000n + (traceSeq++ % 1000n);
  return `${tick.toString(36).padStart(16, '0')}-${crypto.randomUUID().slice(0, 8)}`;
}

export function tracesOf(db: Db, consultationId: string) {
  return db
    .select({
      id: consultationTraces.id,
      action: consultationTraces.action,
      accountName: sql<string>`coalesce(${accounts.name}, '')`,
      at: consultationTraces.at,
      detail: consultationTraces.detail,
    })
    .from(consultationTraces)
    .leftJoin(accounts, eq(accounts.id, consultationTraces.accountId))
    .where(eq(consultationTraces.consultationId, consultationId))
    .orderBy(asc(consultationTraces.at), asc(consultationTraces.id));
}

/* ---------- names ---------- */

export async function bucketNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: buckets.id, name: buckets.name })
    .from(buckets)
    .where(inArray(buckets.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function accountNames(db: Db, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((i): i is string => !!i))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: accounts.id, name: accounts.name })
    .from(accounts)
    .where(inArray(accounts.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/* ---------- members ---------- */

export interface MemberRow {
  consultationId: string;
  accountId: string;
  name: string;
  role: string;
}

/** The experts and joiners of these consultations, in the order named. */
export async function membersOf(db: Db, consultationIds: readonly string[]): Promise<MemberRow[]> {
  if (consultationIds.length === 0) return [];
  return db
    .select({
      consultationId: consultationMembers.consultationId,
      accountId: consultationMembers.accountId,
      name: accounts.name,
      role: consultationMembers.role,
    })
    .from(consultationMembers)
    .innerJoin(accounts, eq(accounts.id, consultationMembers.accountId))
    .where(inArray(consultationMembers.consultationId, [...consultationIds]))
    .orderBy(asc(consultationMembers.created), asc(accounts.name));
}

/** Replaces the consultation's members. */
export async function replaceMembers(
  tx: Db,
  consultationId: string,
  members: { accountId: string; role: 'expert' | 'joiner' }[],
  now: Date,
): Promise<void> {
  await tx.delete(consultationMembers).where(eq(consultationMembers.consultationId, consultationId));
  if (members.length === 0) return;
  await tx.insert(consultationMembers).values(members.map((m) => ({ consultationId, ...m, created: now })));
}

/** The members of an organization (accounts that belong to it), by name. */
export function bucketAccounts(db: Db, bucketId: string): Promise<{ accountId: string; name: string }[]> {
  return db
    .select({ accountId: accounts.id, name: accounts.name })
    .from(bucketMembers)
    .innerJoin(accounts, eq(accounts.id, bucketMembers.accountId))
    .where(and(eq(bucketMembers.bucketId, bucketId), eq(accounts.disabled, 0)))
    .orderBy(asc(accounts.name), asc(accounts.id));
}

/* ---------- the detail's parts ---------- */

export function boundExamsOf(db: Db, consultationId: string) {
  return db
    .select()
    .from(consultationExams)
    .where(eq(consultationExams.consultationId, consultationId))
    .orderBy(asc(consultationExams.created), asc(consultationExams.examId));
}

export function casesOf(db: Db, consultationId: string) {
  return db
    .select()
    .from(consultationCases)
    .where(eq(consultationCases.consultationId, consultationId))
    .orderBy(asc(consultationCases.created), asc(consultationCases.id));
}

export function filesOf(db: Db, consultationId: string) {
  return db
    .select({
      id: consultationFiles.id,
      caseId: consultationFiles.caseId,
      fileName: consultationFiles.fileName,
      size: consultationFiles.size,
      fileType: consultationFiles.fileType,
      uploadStatus: consultationFiles.uploadStatus,
      created: consultationFiles.created,
      createdByName: sql<string>`coalesce(${accounts.name}, '')`,
    })
    .from(consultationFiles)
    .leftJoin(accounts, eq(accounts.id, consultationFiles.createdBy))
    .where(eq(consultationFiles.consultationId, consultationId))
    .orderBy(asc(consultationFiles.created), asc(consultationFiles.id));
}

/* ---------- links ---------- */

/** The consultation's links with the linked consultation's row. */
export async function linksOf(db: Db, consultationId: string) {
  return db
    .select({ id: consultationLinks.id, linked: consultations })
    .from(consultationLinks)
    .innerJoin(consultations, eq(consultations.id, consultationLinks.linkedId))
    .where(eq(consultationLinks.consultationId, consultationId))
    .orderBy(asc(consultationLinks.created), asc(consultationLinks.id));
}

export async function findLink(db: Db, consultationId: string, linkId: string) {
  const rows = await db
    .select()
    .from(consultationLinks)
    .where(and(eq(consultationLinks.id, linkId), eq(consultationLinks.consultationId, consultationId)))
    .limit(1);
  return rows[0];
}

/** Links `linkedId` to the consultation; false when it was linked already. */
export async function insertLink(
  tx: Db,
  row: { consultationId: string; linkedId: string; createdBy: string; created: Date },
): Promise<boolean> {
  const out = await tx
    .insert(consultationLinks)
    .values({ id: crypto.randomUUID(), ...row })
    .onConflictDoNothing()
    .returning({ id: consultationLinks.id });
  return out.length > 0;
}

export async function countLinks(db: Db, consultationId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(consultationLinks)
    .where(eq(consultationLinks.consultationId, consultationId));
  return Number(row?.n ?? 0);
}

export async function deleteLink(tx: Db, consultationId: string, linkId: string) {
  const rows = await tx
    .delete(consultationLinks)
    .where(and(eq(consultationLinks.id, linkId), eq(consultationLinks.consultationId, consultationId)))
    .returning();
  return rows[0];
}
