import { and, desc, eq, gte, ilike, inArray, lt, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { consultationLinks, consultations, type ConsultationRow } from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';
import type { Db } from '../../platform/db.js';

const contains = (s: string) => `%${escapeLike(s)}%`;

/** Whose consultations a caller sees (the service works the sets out from its memberships). */
export interface Visibility {
  accountId: string;
  /** organizations where the caller holds a consultation action: their requests */
  sourceIds: string[];
  /** organizations where the caller holds consultation_update: the requests they received */
  targetIds: string[];
  /** organizations the caller can see at all: its own requests there */
  visibleIds: string[];
}

export interface ListFilter {
  status?: number;
  keyword?: string;
  sourceBucketId?: string;
  targetBucketId?: string;
  /** scheduled at or after */
  from?: Date;
  /** scheduled before */
  to?: Date;
  mine?: boolean;
}

const isMember = (accountId: string) =>
  sql`exists (select 1 from consultation_members cm where cm.consultation_id = ${consultations.id}
    and cm.account_id = ${accountId})`;

function visible(v: Visibility): SQL {
  const sides: SQL[] = [isMember(v.accountId)];
  if (v.sourceIds.length > 0) sides.push(inArray(consultations.sourceBucketId, v.sourceIds));
  if (v.targetIds.length > 0) sides.push(inArray(consultations.targetBucketId, v.targetIds));
  if (v.visibleIds.length > 0) {
    sides.push(and(eq(consultations.creatorId, v.accountId), inArray(consultations.sourceBucketId, v.visibleIds))!);
  }
  return or(...sides)!;
}

function conditions(v: Visibility, f: ListFilter): SQL {
  const where: SQL[] = [visible(v)];
  if (f.status !== undefined) where.push(eq(consultations.status, f.status));
  if (f.keyword) {
    const k = contains(f.keyword);
    where.push(or(ilike(consultations.patientName, k), ilike(consultations.title, k), ilike(consultations.reason, k))!);
  }
  if (f.sourceBucketId) where.push(eq(consultations.sourceBucketId, f.sourceBucketId));
  if (f.targetBucketId) where.push(eq(consultations.targetBucketId, f.targetBucketId));
  if (f.from) where.push(gte(consultations.scheduledAt, f.from));
  if (f.to) where.push(lt(consultations.scheduledAt, f.to));
  if (f.mine) where.push(or(eq(consultations.creatorId, v.accountId), isMember(v.accountId))!);
  return and(...where)!;
}

/** A page of the consultations the caller sees, newest first. */
export function listConsultations(
  db: Db,
  v: Visibility,
  f: ListFilter,
  skip: number,
  limit: number,
): Promise<ConsultationRow[]> {
  return db
    .select()
    .from(consultations)
    .where(conditions(v, f))
    .orderBy(desc(consultations.created), desc(consultations.id))
    .offset(skip)
    .limit(limit);
}

export async function countConsultations(db: Db, v: Visibility, f: ListFilter): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(consultations)
    .where(conditions(v, f));
  return Number(row?.n ?? 0);
}

/**
 * Completed consultations of the group that `consultationId` may link as history: not itself, not
 * linked already; the same patient's first, then newest first.
 */
export function pastConsultations(
  db: Db,
  q: { groupId: string; consultationId: string; patientName: string; keyword?: string; limit: number },
): Promise<ConsultationRow[]> {
  const linked = db
    .select({ id: consultationLinks.linkedId })
    .from(consultationLinks)
    .where(eq(consultationLinks.consultationId, q.consultationId));
  const where: SQL[] = [
    eq(consultations.groupId, q.groupId),
    eq(consultations.status, 2),
    ne(consultations.id, q.consultationId),
    notInArray(consultations.id, linked),
  ];
  if (q.keyword) {
    const k = contains(q.keyword);
    where.push(or(ilike(consultations.patientName, k), ilike(consultations.title, k), ilike(consultations.reason, k))!);
  }
  return db
    .select()
    .from(consultations)
    .where(and(...where))
    .orderBy(
      sql`case when ${consultations.patientName} = ${q.patientName} then 0 else 1 end`,
      desc(consultations.created),
      desc(consultations.id),
    )
    .limit(q.limit);
}
