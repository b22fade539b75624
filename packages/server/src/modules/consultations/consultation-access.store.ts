import { and, eq, sql, type AnyColumn } from 'drizzle-orm';
import { consultationExams, consultationMembers, consultations, type ConsultationRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The consultation row, undefined when there is none. */
export async function findConsultation(db: Db, id: string): Promise<ConsultationRow | undefined> {
  return (await db.select().from(consultations).where(eq(consultations.id, id)).limit(1))[0];
}

/** The consultation row under its row lock (for a change in `tx`). */
export async function lockConsultation(tx: Db, id: string): Promise<ConsultationRow | undefined> {
  return (await tx.select().from(consultations).where(eq(consultations.id, id)).for('update'))[0];
}

/** The caller's member role ('expert' | 'joiner') in the consultation, undefined when none. */
export async function memberRoleOf(db: Db, consultationId: string, accountId: string): Promise<string | undefined> {
  const rows = await db
    .select({ role: consultationMembers.role })
    .from(consultationMembers)
    .where(and(eq(consultationMembers.consultationId, consultationId), eq(consultationMembers.accountId, accountId)))
    .limit(1);
  return rows[0]?.role;
}

/** Whether an exam is bound to the consultation. */
export async function hasBoundExam(db: Db, consultationId: string): Promise<boolean> {
  const rows = await db
    .select({ e: consultationExams.examId })
    .from(consultationExams)
    .where(eq(consultationExams.consultationId, consultationId))
    .limit(1);
  return rows.length > 0;
}

/**
 * For route auth: the consultation's two organizations and whether the caller belongs to each
 * (organization membership, and membership of its group), undefined when there is no consultation.
 */
export async function sidesOf(
  db: Db,
  consultationId: string,
  accountId: string,
): Promise<
  | {
      sourceBucketId: string;
      targetBucketId: string;
      inSource: boolean;
      inTarget: boolean;
      inSourceGroup: boolean;
      inTargetGroup: boolean;
    }
  | undefined
> {
  // Written out with aliases: drizzle leaves a lone table's columns unqualified, which a join would make ambiguous.
  const inBucket = (col: AnyColumn) =>
    sql<boolean>`exists (select 1 from bucket_members bm where bm.bucket_id = ${col} and bm.account_id = ${accountId})`;
  const inGroupOf = (col: AnyColumn) =>
    sql<boolean>`exists (select 1 from group_members gm join buckets gb on gb.group_id = gm.group_id
      where gb.id = ${col} and gm.account_id = ${accountId})`;
  const rows = await db
    .select({
      sourceBucketId: consultations.sourceBucketId,
      targetBucketId: consultations.targetBucketId,
      inSource: inBucket(consultations.sourceBucketId),
      inTarget: inBucket(consultations.targetBucketId),
      inSourceGroup: inGroupOf(consultations.sourceBucketId),
      inTargetGroup: inGroupOf(consultations.targetBucketId),
    })
    .from(consultations)
    .where(eq(consultations.id, consultationId))
    .limit(1);
  const row = rows[0];
  if (!row) return undefined;
  const bool = (v: unknown) => v === true || v === 't' || v === 'true';
  return {
    ...row,
    inSource: bool(row.inSource),
    inTarget: bool(row.inTarget),
    inSourceGroup: bool(row.inSourceGroup),
    inTargetGroup: bool(row.inTargetGroup),
  };
}
