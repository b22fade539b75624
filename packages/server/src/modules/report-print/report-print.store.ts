import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  accounts,
  buckets,
  coExams,
  exams,
  groups,
  printTemplates,
  reportImages,
  reports,
  reportSampleGraphs,
  sampleGraphs,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** All SQL of report printing (CONVENTIONS 7). */

export type PrintTemplateRow = typeof printTemplates.$inferSelect;

export async function findTemplate(db: Db, bucketId: string): Promise<PrintTemplateRow | undefined> {
  const [row] = await db.select().from(printTemplates).where(eq(printTemplates.bucketId, bucketId));
  return row;
}

/** Writes the organization's template; answers it with the row it replaced (its keys may be freed). */
export async function saveTemplate(
  db: Db,
  row: PrintTemplateRow,
): Promise<{ saved: PrintTemplateRow; before: PrintTemplateRow | undefined }> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(printTemplates)
      .where(eq(printTemplates.bucketId, row.bucketId))
      .for('update');
    const [saved] = await tx
      .insert(printTemplates)
      .values(row)
      .onConflictDoUpdate({
        target: printTemplates.bucketId,
        set: {
          hospitalName: row.hospitalName,
          title: row.title,
          logoKey: row.logoKey,
          stampKey: row.stampKey,
          footerHtml: row.footerHtml,
          imageColumns: row.imageColumns,
          showSignatures: row.showSignatures,
          settings: row.settings,
          updatedBy: row.updatedBy,
          updatedAt: row.updatedAt,
        },
      })
      .returning();
    return { saved: saved!, before };
  });
}

/** The people on a print: names and signature picture keys. */
export async function people(db: Db, ids: (string | null | undefined)[]) {
  const wanted = [...new Set(ids.filter((x): x is string => typeof x === 'string'))];
  if (wanted.length === 0) return new Map<string, { name: string; signature: string | null }>();
  const rows = await db
    .select({ id: accounts.id, name: accounts.name, username: accounts.username, signature: accounts.signature })
    .from(accounts)
    .where(inArray(accounts.id, wanted));
  return new Map(rows.map((r) => [r.id, { name: r.name || r.username, signature: r.signature }]));
}

/** Reports with their primary exam's header fields, for live exams of the bucket. */
export async function reportsWithExams(db: Db, bucketId: string, reportIds: string[]) {
  if (reportIds.length === 0) return [];
  return db
    .select({ report: reports, exam: exams })
    .from(reports)
    .innerJoin(exams, eq(exams.id, reports.id))
    .where(and(inArray(reports.id, reportIds), eq(exams.bucketId, bucketId), isNull(exams.deletedTime)));
}

/** The exams reported together with each report (primary excluded), oldest first. */
export async function coExamsOf(db: Db, reportIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (reportIds.length === 0) return out;
  const rows = await db
    .select({ primary: coExams.primaryExamId, id: coExams.examId })
    .from(coExams)
    .where(inArray(coExams.primaryExamId, reportIds))
    .orderBy(asc(coExams.createdAt), asc(coExams.examId));
  for (const r of rows) out.set(r.primary, [...(out.get(r.primary) ?? []), r.id]);
  return out;
}

/** Key images marked isPrinted, in their order. */
export async function printedImages(db: Db, reportIds: string[]) {
  if (reportIds.length === 0) return [];
  return db
    .select({
      id: reportImages.id,
      reportId: reportImages.reportId,
      blobKey: reportImages.blobKey,
      contentType: reportImages.contentType,
      desc: reportImages.desc,
      position: reportImages.position,
    })
    .from(reportImages)
    .where(and(inArray(reportImages.reportId, reportIds), eq(reportImages.isPrinted, true)))
    .orderBy(asc(reportImages.reportId), asc(reportImages.position));
}

/** Sample graphs of the bucket placed on these reports with isPrinted, in their order. */
export async function printedSampleGraphs(db: Db, bucketId: string, reportIds: string[]) {
  if (reportIds.length === 0) return [];
  return db
    .select({
      id: reportSampleGraphs.id,
      reportId: reportSampleGraphs.reportId,
      points: reportSampleGraphs.points,
      title: sampleGraphs.title,
      blobKey: sampleGraphs.blobKey,
      contentType: sampleGraphs.contentType,
      width: sampleGraphs.width,
      height: sampleGraphs.height,
    })
    .from(reportSampleGraphs)
    .innerJoin(sampleGraphs, eq(sampleGraphs.id, reportSampleGraphs.sampleGraphId))
    .where(
      and(
        inArray(reportSampleGraphs.reportId, reportIds),
        eq(reportSampleGraphs.isPrinted, true),
        eq(sampleGraphs.bucketId, bucketId),
      ),
    )
    .orderBy(asc(reportSampleGraphs.reportId), asc(reportSampleGraphs.position), asc(reportSampleGraphs.createdAt));
}

/** The report attributes the organization's group turned on (urgentNotes, enReportFlag …). */
export async function groupAttributesOf(db: Db, bucketId: string) {
  const [row] = await db
    .select({ attributes: groups.attributes })
    .from(buckets)
    .innerJoin(groups, eq(groups.id, buckets.groupId))
    .where(eq(buckets.id, bucketId));
  return row?.attributes ?? {};
}

/**
 * Printing sheets: the chosen live exams of these buckets, each with the report it is written in
 * (its primary exam's) and its study day.
 */
export async function sheetExams(db: Db, examIds: string[], bucketIds: string[]) {
  if (examIds.length === 0 || bucketIds.length === 0) return [];
  return db
    .select({
      id: exams.id,
      bucketId: exams.bucketId,
      studyDate: exams.studyDate,
      created: exams.created,
      reportId: sql<string>`coalesce(${coExams.primaryExamId}, ${exams.id})`,
    })
    .from(exams)
    .leftJoin(coExams, eq(coExams.examId, exams.id))
    .where(and(inArray(exams.id, examIds), inArray(exams.bucketId, bucketIds), isNull(exams.deletedTime)));
}

/** The organization's and its group's (the hospital's) names, for the template it starts with. */
export async function organizationOf(db: Db, bucketId: string) {
  const [row] = await db
    .select({ bucketName: buckets.name, groupName: groups.displayName, createdAt: buckets.createdAt })
    .from(buckets)
    .innerJoin(groups, eq(groups.id, buckets.groupId))
    .where(eq(buckets.id, bucketId));
  return row;
}
