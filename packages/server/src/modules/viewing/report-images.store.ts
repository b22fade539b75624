import { and, asc, eq, sql } from 'drizzle-orm';
import { exams, reportImages, type ReportImageRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

type NewReportImageRow = typeof reportImages.$inferInsert;

/** The key images' queries (report-images.ts). */

/** Locks the report's exam row until the transaction ends: it serializes changes to its images. */
export async function lockReportExam(tx: Db, reportId: string): Promise<void> {
  await tx.execute(sql`select id from ${exams} where ${exams.id} = ${reportId} for update`);
}

/** How many images the report holds. */
export async function countImages(tx: Db, reportId: string): Promise<number> {
  const [{ n }] = (await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(reportImages)
    .where(eq(reportImages.reportId, reportId))) as [{ n: number }];
  return n;
}

export async function insertImage(tx: Db, row: NewReportImageRow): Promise<ReportImageRow> {
  const [inserted] = await tx.insert(reportImages).values(row).returning();
  return inserted!;
}

/** The report's images in their order. */
export async function listImages(db: Db, reportId: string): Promise<ReportImageRow[]> {
  return db.select().from(reportImages).where(eq(reportImages.reportId, reportId)).orderBy(asc(reportImages.position));
}

/** Changes an image's description and print flag; undefined when the report has no such image. */
export async function updateImage(
  db: Db,
  reportId: string,
  imageId: string,
  change: { desc?: string; isPrinted?: boolean },
): Promise<ReportImageRow | undefined> {
  const [row] = await db
    .update(reportImages)
    .set({
      ...(change.desc !== undefined ? { desc: change.desc } : {}),
      ...(change.isPrinted !== undefined ? { isPrinted: change.isPrinted } : {}),
    })
    .where(and(eq(reportImages.id, imageId), eq(reportImages.reportId, reportId)))
    .returning();
  return row;
}

/** The ids of the report's images, in no particular order. */
export async function imageIdsOf(tx: Db, reportId: string): Promise<string[]> {
  const rows = await tx.select({ id: reportImages.id }).from(reportImages).where(eq(reportImages.reportId, reportId));
  return rows.map((r) => r.id);
}

/** Gives the report's images the positions of `imageIds` (each of them once, checked by the caller). */
export async function reorderImages(tx: Db, reportId: string, imageIds: string[]): Promise<void> {
  // Negative positions first keep the unique (report, position) index satisfied.
  for (const [i, id] of imageIds.entries()) {
    await tx
      .update(reportImages)
      .set({ position: -1 - i })
      .where(eq(reportImages.id, id));
  }
  await tx
    .update(reportImages)
    .set({ position: sql`-${reportImages.position} - 1` })
    .where(eq(reportImages.reportId, reportId));
}

/** Deletes one image of the report and moves the later ones up; answers the deleted row, if any. */
export async function deleteImageRow(tx: Db, reportId: string, imageId: string): Promise<ReportImageRow | undefined> {
  const [gone] = await tx
    .delete(reportImages)
    .where(and(eq(reportImages.id, imageId), eq(reportImages.reportId, reportId)))
    .returning();
  if (!gone) return undefined;
  // Two steps keep the unique (report, position) index satisfied while the rest move up.
  await tx
    .update(reportImages)
    .set({ position: sql`-${reportImages.position}` })
    .where(and(eq(reportImages.reportId, reportId), sql`${reportImages.position} > ${gone.position}`));
  await tx
    .update(reportImages)
    .set({ position: sql`-${reportImages.position} - 1` })
    .where(and(eq(reportImages.reportId, reportId), sql`${reportImages.position} < 0`));
  return gone;
}
