import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { buckets, callingSettings, queueExams, queueTypes, type QueueTypeRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The group of an organization. */
export async function groupOfBucket(db: Db, bucketId: string): Promise<string | undefined> {
  const rows = await db.select({ groupId: buckets.groupId }).from(buckets).where(eq(buckets.id, bucketId)).limit(1);
  return rows[0]?.groupId;
}

/* ---------- queue types ---------- */

/** The organization that owns a queue type. */
export async function ownerOfQueueType(db: Db, id: string): Promise<string | undefined> {
  const rows = await db
    .select({ bucketId: queueTypes.bucketId })
    .from(queueTypes)
    .where(eq(queueTypes.id, id))
    .limit(1);
  return rows[0]?.bucketId;
}

export async function findQueueType(db: Db, id: string): Promise<QueueTypeRow | undefined> {
  const rows = await db.select().from(queueTypes).where(eq(queueTypes.id, id)).limit(1);
  return rows[0];
}

/** The organization's queue types, in the order they were added (by name when added at once). */
export function queueTypesOf(db: Db, bucketId: string): Promise<QueueTypeRow[]> {
  return db
    .select()
    .from(queueTypes)
    .where(eq(queueTypes.bucketId, bucketId))
    .orderBy(asc(queueTypes.created), asc(queueTypes.displayName));
}

/** The first queue type of the organization for a modality (case-insensitive), if any. */
export async function queueTypeForModality(
  db: Db,
  bucketId: string,
  modality: string,
): Promise<QueueTypeRow | undefined> {
  const rows = await db
    .select()
    .from(queueTypes)
    .where(and(eq(queueTypes.bucketId, bucketId), sql`upper(${queueTypes.modality}) = upper(${modality})`))
    .orderBy(asc(queueTypes.created), asc(queueTypes.displayName))
    .limit(1);
  return rows[0];
}

export async function countQueueTypes(db: Db, bucketId: string): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(queueTypes)
    .where(eq(queueTypes.bucketId, bucketId));
  return rows[0]?.n ?? 0;
}

/** Another queue type of the organization with this display name (the names are unique per organization). */
export async function queueTypeNamed(db: Db, bucketId: string, displayName: string): Promise<QueueTypeRow | undefined> {
  const rows = await db
    .select()
    .from(queueTypes)
    .where(and(eq(queueTypes.bucketId, bucketId), eq(queueTypes.displayName, displayName)))
    .limit(1);
  return rows[0];
}

export async function insertQueueType(db: Db, values: typeof queueTypes.$inferInsert): Promise<QueueTypeRow> {
  const [row] = await db.insert(queueTypes).values(values).returning();
  return row!;
}

export async function updateQueueType(
  db: Db,
  id: string,
  values: Pick<QueueTypeRow, 'displayName' | 'modality' | 'roomName' | 'urgentFirst' | 'updated'>,
): Promise<QueueTypeRow | undefined> {
  const [row] = await db.update(queueTypes).set(values).where(eq(queueTypes.id, id)).returning();
  return row;
}

/** Deletes a queue type with its queue exams of every day. */
export async function deleteQueueType(db: Db, id: string): Promise<void> {
  await db.delete(queueTypes).where(eq(queueTypes.id, id));
}

/** How many exams of the queue on a day (and after) are still waiting, called or missed. */
export async function openExamsOf(db: Db, queueTypeId: string, fromDate: string): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(queueExams)
    .where(
      and(
        eq(queueExams.queueTypeId, queueTypeId),
        sql`${queueExams.checkInDate} >= ${fromDate}`,
        inArray(queueExams.status, ['waiting', 'called', 'missed']),
      ),
    );
  return rows[0]?.n ?? 0;
}

/* ---------- settings ---------- */

export async function findSettings(
  db: Db,
  bucketId: string,
): Promise<{ announcementTemplate: string; speakFullName: boolean } | undefined> {
  const rows = await db
    .select({
      announcementTemplate: callingSettings.announcementTemplate,
      speakFullName: callingSettings.speakFullName,
    })
    .from(callingSettings)
    .where(eq(callingSettings.bucketId, bucketId))
    .limit(1);
  return rows[0];
}

export async function saveSettings(
  db: Db,
  values: { bucketId: string; announcementTemplate: string; speakFullName: boolean; updatedBy: string; updated: Date },
): Promise<void> {
  await db
    .insert(callingSettings)
    .values(values)
    .onConflictDoUpdate({
      target: callingSettings.bucketId,
      set: {
        announcementTemplate: values.announcementTemplate,
        speakFullName: values.speakFullName,
        updatedBy: values.updatedBy,
        updated: values.updated,
      },
    });
}
