import type { DicomRefusal, DicomRefusalReason } from '@yyp/contracts';
import { and, count, desc, eq, gte, inArray, lte, or, sql } from 'drizzle-orm';
import { auditLogs, buckets, modalities } from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';
import type { Db } from '../../platform/db.js';

/** The audit action the archive writes when it refuses an association (ArchiveService). */
export const REFUSED_ASSOCIATION = 'dicom.association.refused';

export interface RefusalFilter {
  /** only refusals that concern this group's AE titles; all of them when absent */
  groupId?: string | undefined;
  aeTitle?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

const callingAe = sql<string>`${auditLogs.details}->>'callingAe'`;
const calledAe = sql<string>`${auditLogs.details}->>'calledAe'`;

/**
 * Refused associations, newest first. A group's are those that name an AE title one of its
 * organizations registers now (as calling or called AE), or whose calling AE title one of them
 * had registered when it was refused (the row's organization).
 */
export async function queryRefusals(db: Db, f: RefusalFilter, skip: number, limit: number) {
  const groupBuckets = f.groupId
    ? db.select({ id: buckets.id }).from(buckets).where(eq(buckets.groupId, f.groupId))
    : undefined;
  const groupTitles = f.groupId
    ? db
        .select({ ae: modalities.aeTitle })
        .from(modalities)
        .innerJoin(buckets, eq(buckets.id, modalities.bucketId))
        .where(eq(buckets.groupId, f.groupId))
    : undefined;
  const pattern = f.aeTitle ? `%${escapeLike(f.aeTitle)}%` : undefined;
  const where = and(
    eq(auditLogs.action, REFUSED_ASSOCIATION),
    groupBuckets && groupTitles
      ? or(inArray(auditLogs.bucketId, groupBuckets), inArray(callingAe, groupTitles), inArray(calledAe, groupTitles))
      : undefined,
    pattern ? or(sql`${callingAe} ilike ${pattern}`, sql`${calledAe} ilike ${pattern}`) : undefined,
    f.from ? gte(auditLogs.at, f.from) : undefined,
    f.to ? lte(auditLogs.at, f.to) : undefined,
  );
  const rows = await db
    .select({
      id: auditLogs.id,
      at: auditLogs.at,
      ip: auditLogs.ip,
      outcome: auditLogs.outcome,
      details: auditLogs.details,
      bucketId: auditLogs.bucketId,
      bucketName: buckets.name,
      bucketGroupId: buckets.groupId,
    })
    .from(auditLogs)
    .leftJoin(buckets, eq(buckets.id, auditLogs.bucketId))
    .where(where)
    .orderBy(desc(auditLogs.at), desc(auditLogs.id))
    .offset(skip)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(auditLogs).where(where);
  const refusals: DicomRefusal[] = rows.map((r) => {
    const d = (r.details ?? {}) as { callingAe?: unknown; calledAe?: unknown; reason?: unknown };
    // The organization is shown to a group's auditor only when it is one of the group's.
    const shown = r.bucketId && r.bucketName !== null && (!f.groupId || r.bucketGroupId === f.groupId);
    return {
      id: r.id,
      at: r.at.toISOString(),
      callingAe: String(d.callingAe ?? ''),
      calledAe: String(d.calledAe ?? ''),
      peerAddress: r.ip,
      reason: reasonOf(d.reason, r.bucketId !== null),
      outcome: r.outcome,
      organization: shown ? { id: r.bucketId!, name: r.bucketName! } : null,
    };
  });
  return { refusals, count: total?.n ?? 0 };
}

/**
 * The archive records 'called' or 'calling'; a refused calling AE title that an organization had
 * registered (the row names it) was refused for the peer's address.
 */
function reasonOf(recorded: unknown, registered: boolean): DicomRefusalReason {
  if (recorded === 'called') return 'calledAe';
  return registered ? 'callingHost' : 'callingAe';
}
