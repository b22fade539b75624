import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, ne, notInArray, or, sql } from 'drizzle-orm';
import { examAttachments, examPackages, exams, instances, orders, series } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { nameInitials } from '../archive/index.js';

/**
 * An exam's life outside the list query: soft delete, recovery, the purge of what stayed deleted,
 * the printed flag and the start-up backfill of the name initials.
 */

/** An exam's organization and source, deleted or not (the deleted-exams view's recovery and delete). */
export async function anyExamOwner(db: Db, examId: string): Promise<{ bucketId: string; source: string } | undefined> {
  const [row] = await db
    .select({ bucketId: exams.bucketId, source: exams.source })
    .from(exams)
    .where(eq(exams.id, examId))
    .limit(1);
  return row;
}

/** Marks a live exam deleted; answers false when it was not live. */
export async function softDelete(db: Db, examId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(exams)
    .set({ deletedTime: now, updated: now })
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)))
    .returning({ id: exams.id });
  return rows.length > 0;
}

/** Brings back an exam deleted after `after`; answers false when there was none. */
export async function recover(db: Db, examId: string, after: Date, now: Date): Promise<boolean> {
  const rows = await db
    .update(exams)
    .set({ deletedTime: null, updated: now })
    .where(and(eq(exams.id, examId), isNotNull(exams.deletedTime), gt(exams.deletedTime, after)))
    .returning({ id: exams.id });
  return rows.length > 0;
}

/** Exams deleted at or before `before`, oldest first (the purge). */
export async function expiredDeleted(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: exams.id })
    .from(exams)
    .where(and(isNotNull(exams.deletedTime), lte(exams.deletedTime, before)))
    .orderBy(asc(exams.deletedTime))
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Removes deleted exams for good, with their series, instances, package and attachments (the
 * foreign keys cascade); answers the blob keys to delete once the transaction commits. Only
 * exams still deleted are removed, so a recovery that won the race keeps its exam.
 */
export async function destroyDeleted(db: Db, examIds: string[]): Promise<{ examIds: string[]; blobKeys: string[] }> {
  if (examIds.length === 0) return { examIds: [], blobKeys: [] };
  const doomed = (
    await db
      .select({ id: exams.id })
      .from(exams)
      .where(and(inArray(exams.id, examIds), isNotNull(exams.deletedTime)))
      .for('update')
  ).map((r) => r.id);
  if (doomed.length === 0) return { examIds: [], blobKeys: [] };
  const [files, packages, attachments] = await Promise.all([
    db.select({ key: instances.blobKey }).from(instances).where(inArray(instances.examId, doomed)),
    db.select({ key: examPackages.blobKey }).from(examPackages).where(inArray(examPackages.examId, doomed)),
    db.select({ key: examAttachments.blobKey }).from(examAttachments).where(inArray(examAttachments.examId, doomed)),
  ]);
  const shared = await filesStillUsed(
    db,
    doomed,
    files.map((r) => r.key),
  );
  await db.delete(exams).where(inArray(exams.id, doomed));
  const unshared = files.filter((r) => !shared.has(r.key));
  return { examIds: doomed, blobKeys: [...unshared, ...packages, ...attachments].map((r) => r.key) };
}

/**
 * Of these stored files, those an exam that stays still references: a remote read's copy in the
 * expert organization (orders module) and the requester's exam share their instances' files.
 */
async function filesStillUsed(db: Db, doomed: string[], keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const pairs = await db
    .select({ a: orders.examId, b: orders.targetExamId })
    .from(orders)
    .where(
      and(ne(orders.status, 'cancelled'), or(inArray(orders.examId, doomed), inArray(orders.targetExamId, doomed))),
    );
  const gone = new Set(doomed);
  const others = [...new Set(pairs.flatMap((p) => [p.a, p.b]))].filter((id): id is string => !!id && !gone.has(id));
  if (others.length === 0) return new Set();
  const wanted = new Set(keys);
  const rows = await db
    .select({ key: instances.blobKey })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .where(inArray(series.examId, others));
  return new Set(rows.map((r) => r.key).filter((k) => wanted.has(k)));
}

/**
 * Fills patient_name_pinyin of exams stored before the column existed, a batch at a time; answers
 * how many rows it filled. The ingest fills it for every new exam.
 */
export async function backfillNameInitials(db: Db, batch = 500): Promise<number> {
  let done = 0;
  for (;;) {
    const rows = await db
      .select({ id: exams.id, name: exams.patientName })
      .from(exams)
      .where(isNull(exams.patientNamePinyin))
      .limit(batch);
    if (rows.length === 0) return done;
    await db.execute(sql`
      update exams set patient_name_pinyin = u.initials
      from unnest(${`{${rows.map((r) => JSON.stringify(r.id)).join(',')}}`}::text[],
        ${`{${rows.map((r) => JSON.stringify(nameInitials(r.name))).join(',')}}`}::text[]) as u(id, initials)
      where exams.id = u.id`);
    done += rows.length;
  }
}

/**
 * Sets the print status of the live exams with these study UIDs in these buckets, all or none:
 * answers the number updated, or null (nothing changed) when a UID matches no such exam.
 */
export async function setPrinted(
  db: Db,
  bucketIds: string[],
  storeUids: string[],
  printed: boolean,
  hidden: readonly string[] = [],
): Promise<{ id: string; bucketId: string }[] | null> {
  if (bucketIds.length === 0) return null;
  return db.transaction(async (tx) => {
    const where = and(
      inArray(exams.bucketId, bucketIds),
      inArray(exams.storeUid, storeUids),
      isNull(exams.deletedTime),
      hidden.length > 0 ? notInArray(exams.id, [...hidden]) : undefined,
    );
    const found = await tx.select({ storeUid: exams.storeUid }).from(exams).where(where);
    if (new Set(found.map((f) => f.storeUid)).size < new Set(storeUids).size) return null;
    return tx
      .update(exams)
      .set({ studyPrinted: printed })
      .where(where)
      .returning({ id: exams.id, bucketId: exams.bucketId });
  });
}
