import crypto from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import {
  dicomSends,
  exams,
  forwardingRules,
  instances,
  modalities,
  series,
  type DicomSendRow,
  type ForwardingRuleRow,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The forwarding module's SQL: rules, sends, and what a send or a rule reads of an exam. */

export type RuleValues = Pick<
  ForwardingRuleRow,
  'name' | 'destinationId' | 'modality' | 'sourceAe' | 'bodyPart' | 'enabled'
>;

/** A device of the organization that can be sent to (host and port registered), or undefined. */
export async function findDestination(db: Db, bucketId: string, id: string) {
  const [row] = await db
    .select()
    .from(modalities)
    .where(and(eq(modalities.id, id), eq(modalities.bucketId, bucketId)));
  return row;
}

export async function listRules(db: Db, bucketId: string) {
  return db
    .select({ rule: forwardingRules, destinationAe: modalities.aeTitle })
    .from(forwardingRules)
    .innerJoin(modalities, eq(modalities.id, forwardingRules.destinationId))
    .where(eq(forwardingRules.bucketId, bucketId))
    .orderBy(asc(forwardingRules.created), asc(forwardingRules.id));
}

export async function insertRule(db: Db, bucketId: string, v: RuleValues, now: Date) {
  const [row] = await db
    .insert(forwardingRules)
    .values({ id: crypto.randomUUID(), bucketId, ...v, created: now, updated: now })
    .returning();
  return row!;
}

export async function updateRule(db: Db, bucketId: string, id: string, v: RuleValues, now: Date) {
  const [row] = await db
    .update(forwardingRules)
    .set({ ...v, updated: now })
    .where(and(eq(forwardingRules.id, id), eq(forwardingRules.bucketId, bucketId)))
    .returning();
  return row;
}

export async function deleteRule(db: Db, bucketId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(forwardingRules)
    .where(and(eq(forwardingRules.id, id), eq(forwardingRules.bucketId, bucketId)))
    .returning({ id: forwardingRules.id });
  return rows.length > 0;
}

/** The enabled rules of an organization with their destinations. */
export async function enabledRules(db: Db, bucketId: string) {
  return db
    .select({ rule: forwardingRules, destination: modalities })
    .from(forwardingRules)
    .innerJoin(modalities, eq(modalities.id, forwardingRules.destinationId))
    .where(and(eq(forwardingRules.bucketId, bucketId), eq(forwardingRules.enabled, true)));
}

/** Whether an organization has any enabled rule (a new study costs nothing more otherwise). */
export async function hasEnabledRules(db: Db, bucketId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: forwardingRules.id })
    .from(forwardingRules)
    .where(and(eq(forwardingRules.bucketId, bucketId), eq(forwardingRules.enabled, true)))
    .limit(1);
  return row !== undefined;
}

/** A live exam of the organization, or undefined. */
export async function findExam(db: Db, examId: string) {
  const [row] = await db
    .select()
    .from(exams)
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)));
  return row;
}

/** What a rule matches on: the exam's series' modalities and body parts, and when its last instance arrived. */
export async function examFacts(db: Db, examId: string) {
  const rows = await db
    .select({ modality: series.modality, bodyPart: series.bodyPart })
    .from(series)
    .where(eq(series.examId, examId));
  const [last] = await db
    .select({ at: max(instances.createdAt) })
    .from(instances)
    .where(eq(instances.examId, examId));
  return {
    modalities: [...new Set(rows.map((r) => r.modality).filter(Boolean))],
    bodyParts: [...new Set(rows.map((r) => r.bodyPart ?? '').filter(Boolean))],
    lastArrival: last?.at ?? null,
  };
}

/** The stored instances a send covers (all of the exam's, or of the given series), in series and instance order. */
export async function sendInstances(db: Db, examId: string, seriesUids: string[] | null) {
  return db
    .select({
      sopClassUid: instances.sopClassUid,
      sopInstanceUid: instances.sopInstanceUid,
      transferSyntaxUid: instances.transferSyntaxUid,
      blobKey: instances.blobKey,
    })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .where(and(eq(instances.examId, examId), seriesUids ? inArray(series.seriesUid, seriesUids) : undefined))
    .orderBy(asc(series.seriesNumber), asc(instances.instanceNumber), asc(instances.createdAt));
}

export async function insertSend(
  db: Db,
  v: Pick<
    DicomSendRow,
    'bucketId' | 'examId' | 'destinationId' | 'destinationAe' | 'seriesUids' | 'trigger' | 'ruleId' | 'requestedBy'
  >,
  now: Date,
) {
  const [row] = await db
    .insert(dicomSends)
    .values({ id: crypto.randomUUID(), ...v, created: now, updated: now })
    .returning();
  return row!;
}

export async function findSend(db: Db, id: string) {
  const [row] = await db.select().from(dicomSends).where(eq(dicomSends.id, id));
  return row;
}

export async function updateSend(db: Db, id: string, v: Partial<DicomSendRow>) {
  await db.update(dicomSends).set(v).where(eq(dicomSends.id, id));
}

/** Counts one attempt more. */
export async function startAttempt(db: Db, id: string, now: Date) {
  await db
    .update(dicomSends)
    .set({ status: 'running', attempts: sql`${dicomSends.attempts} + 1`, updated: now })
    .where(eq(dicomSends.id, id));
}

export async function examSends(db: Db, examId: string) {
  return db.select().from(dicomSends).where(eq(dicomSends.examId, examId)).orderBy(desc(dicomSends.created)).limit(100);
}

export async function bucketSends(db: Db, bucketId: string) {
  return db
    .select()
    .from(dicomSends)
    .where(eq(dicomSends.bucketId, bucketId))
    .orderBy(desc(dicomSends.created))
    .limit(100);
}
