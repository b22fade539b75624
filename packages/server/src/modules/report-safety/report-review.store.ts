import { and, asc, count, desc, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import type { QualityLevel } from '@yyp/contracts';
import { buckets, exams, groups, reportComments, reportQuality, reportRatings, reports } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** All SQL of report quality, ratings and comments (CONVENTIONS 7). */

/** The report's status and writer; a report nobody wrote has no row (status none). */
export async function reportFacts(db: Db, reportId: string, forShare = false) {
  const q = db
    .select({ status: reports.status, creatorId: reports.creatorId })
    .from(reports)
    .where(eq(reports.id, reportId));
  const [row] = forShare ? await q.for('share') : await q;
  return row;
}

export async function patientOf(db: Db, examId: string): Promise<string | undefined> {
  const [row] = await db.select({ patientId: exams.patientId }).from(exams).where(eq(exams.id, examId));
  return row?.patientId;
}

/** The group's settings (allowReportComment …). */
export async function groupSettings(db: Db, groupId: string): Promise<Record<string, unknown>> {
  const [row] = await db.select({ settings: groups.settings }).from(groups).where(eq(groups.id, groupId));
  return row?.settings ?? {};
}

/* ---------- quality ---------- */

export type QualityRow = typeof reportQuality.$inferSelect;

export async function findQuality(db: Db, reportId: string): Promise<QualityRow | undefined> {
  const [row] = await db.select().from(reportQuality).where(eq(reportQuality.reportId, reportId));
  return row;
}

export async function upsertQuality(
  db: Db,
  row: {
    reportId: string;
    bucketId: string;
    level: QualityLevel;
    suggestion: string;
    unsatisfactoryItems: string[];
    creatorId: string;
  },
  now: Date,
): Promise<QualityRow> {
  const [out] = await db
    .insert(reportQuality)
    .values({ ...row, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: reportQuality.reportId,
      set: {
        level: row.level,
        suggestion: row.suggestion,
        unsatisfactoryItems: row.unsatisfactoryItems,
        creatorId: row.creatorId,
        updatedAt: now,
      },
    })
    .returning();
  return out!;
}

export async function deleteQuality(db: Db, reportId: string): Promise<boolean> {
  const rows = await db
    .delete(reportQuality)
    .where(eq(reportQuality.reportId, reportId))
    .returning({ id: reportQuality.reportId });
  return rows.length > 0;
}

/** A page of the organization's graded reports with their exams (index report_quality_bucket_idx). */
export async function qualityPage(
  db: Db,
  opts: {
    bucketIds: string[];
    level?: QualityLevel | undefined;
    /** the grading's last change in [from, to) */
    from?: Date | undefined;
    to?: Date | undefined;
    skip: number;
    limit: number;
  },
) {
  if (opts.bucketIds.length === 0) return { rows: [], count: 0 };
  const where = and(
    inArray(reportQuality.bucketId, opts.bucketIds),
    opts.level ? eq(reportQuality.level, opts.level) : undefined,
    opts.from ? gte(reportQuality.updatedAt, opts.from) : undefined,
    opts.to ? lt(reportQuality.updatedAt, opts.to) : undefined,
    isNull(exams.deletedTime),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        quality: reportQuality,
        bucketName: buckets.name,
        patientName: exams.patientName,
        patientId: exams.patientId,
        isPrivacy: exams.isPrivacy,
        modality: exams.modality,
        bodyPart: exams.bodyPart,
        studyDate: exams.studyDate,
        reportStatus: exams.reportStatus,
      })
      .from(reportQuality)
      .innerJoin(exams, eq(exams.id, reportQuality.reportId))
      .innerJoin(buckets, eq(buckets.id, reportQuality.bucketId))
      .where(where)
      .orderBy(desc(reportQuality.updatedAt), asc(reportQuality.reportId))
      .offset(opts.skip)
      .limit(opts.limit),
    db.select({ n: count() }).from(reportQuality).innerJoin(exams, eq(exams.id, reportQuality.reportId)).where(where),
  ]);
  return { rows, count: total?.n ?? 0 };
}

/* ---------- ratings ---------- */

export type RatingRow = typeof reportRatings.$inferSelect;

/** Inserts the rater's one rating; undefined when it already rated (the first stays as it was). */
export async function insertRating(db: Db, row: typeof reportRatings.$inferInsert): Promise<RatingRow | undefined> {
  const [out] = await db
    .insert(reportRatings)
    .values(row)
    .onConflictDoNothing({ target: [reportRatings.reportId, reportRatings.raterId] })
    .returning();
  return out;
}

export async function listRatings(db: Db, reportId: string): Promise<RatingRow[]> {
  return db
    .select()
    .from(reportRatings)
    .where(eq(reportRatings.reportId, reportId))
    .orderBy(asc(reportRatings.createdAt), asc(reportRatings.id));
}

/* ---------- comments ---------- */

export type CommentRow = typeof reportComments.$inferSelect;

export async function insertComment(db: Db, row: typeof reportComments.$inferInsert): Promise<CommentRow> {
  const [out] = await db.insert(reportComments).values(row).returning();
  return out!;
}

export async function listComments(db: Db, reportId: string): Promise<CommentRow[]> {
  return db
    .select()
    .from(reportComments)
    .where(and(eq(reportComments.reportId, reportId), isNull(reportComments.deletedAt)))
    .orderBy(asc(reportComments.createdAt), asc(reportComments.id));
}

export async function findComment(db: Db, reportId: string, id: string): Promise<CommentRow | undefined> {
  const [row] = await db
    .select()
    .from(reportComments)
    .where(and(eq(reportComments.id, id), eq(reportComments.reportId, reportId), isNull(reportComments.deletedAt)));
  return row;
}

/** Soft delete: the row stays for the audit trail, the text leaves every answer. */
export async function deleteComment(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(reportComments)
    .set({ deletedAt: now })
    .where(and(eq(reportComments.id, id), isNull(reportComments.deletedAt)))
    .returning({ id: reportComments.id });
  return rows.length > 0;
}
