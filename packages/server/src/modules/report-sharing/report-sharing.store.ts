import { and, asc, desc, eq, gt, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PublishFilter } from '@yyp/contracts';
import { escapeLike } from '../../db/like.js';
import {
  accounts,
  buckets,
  coExams,
  exams,
  groupIntegrations,
  groups,
  printTemplates,
  reports,
  reportShareLinks,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** All SQL of report sharing and publishing (CONVENTIONS 7). */

export type ShareLinkRow = typeof reportShareLinks.$inferSelect;
export type ExamRow = typeof exams.$inferSelect;

/** Statuses of an approved report (report-machine APPROVED_STATUSES). */
export const APPROVED = ['corrected', 'printed'] as const;
const approved = sql`${reports.status} in ('corrected', 'printed')`;

/** The report row, locked for the caller's transaction. */
export async function lockReport(db: Db, reportId: string) {
  const [row] = await db
    .select({ status: reports.status, version: reports.version })
    .from(reports)
    .where(eq(reports.id, reportId))
    .for('update');
  return row;
}

export async function insertLink(db: Db, row: typeof reportShareLinks.$inferInsert): Promise<ShareLinkRow> {
  const [inserted] = await db.insert(reportShareLinks).values(row).returning();
  return inserted!;
}

export async function linkByHash(db: Db, tokenHash: string): Promise<ShareLinkRow | undefined> {
  const [row] = await db.select().from(reportShareLinks).where(eq(reportShareLinks.tokenHash, tokenHash)).limit(1);
  return row;
}

/** A report's links, newest first, with who made them. */
export async function linksOfReport(db: Db, reportId: string) {
  return db
    .select({ link: reportShareLinks, creatorName: accounts.name, creatorUsername: accounts.username })
    .from(reportShareLinks)
    .leftJoin(accounts, eq(accounts.id, reportShareLinks.createdBy))
    .where(eq(reportShareLinks.reportId, reportId))
    .orderBy(desc(reportShareLinks.createdAt), desc(reportShareLinks.id));
}

/** Revokes one link of the report (a revoked one stays as it was); undefined when it is not the report's. */
export async function revokeLink(
  db: Db,
  reportId: string,
  id: string,
  by: string,
  now: Date,
): Promise<ShareLinkRow | undefined> {
  await db
    .update(reportShareLinks)
    .set({ revokedAt: now, revokedBy: by })
    .where(
      and(eq(reportShareLinks.id, id), eq(reportShareLinks.reportId, reportId), isNull(reportShareLinks.revokedAt)),
    );
  const [row] = await db
    .select()
    .from(reportShareLinks)
    .where(and(eq(reportShareLinks.id, id), eq(reportShareLinks.reportId, reportId)));
  return row;
}

/** The report's publish links still live at `now`: neither revoked nor expired. */
const livePublishLink = (reportId: string, now: Date) =>
  and(
    eq(reportShareLinks.reportId, reportId),
    eq(reportShareLinks.kind, 'publish'),
    isNull(reportShareLinks.revokedAt),
    gt(reportShareLinks.expiresAt, now),
  );

/** A report keeps one live publish link: publishing again revokes the earlier ones. */
export async function revokeLivePublishLinks(db: Db, reportId: string, by: string, now: Date): Promise<void> {
  await db.update(reportShareLinks).set({ revokedAt: now, revokedBy: by }).where(livePublishLink(reportId, now));
}

export async function countView(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(reportShareLinks)
    .set({ viewCount: sql`${reportShareLinks.viewCount} + 1`, lastViewedAt: now })
    .where(eq(reportShareLinks.id, id));
}

/** A live exam with its report, group and organization names and print-template hospital name (one statement). */
export async function reportWithExam(db: Db, reportId: string) {
  const [row] = await db
    .select({
      report: reports,
      exam: exams,
      bucketName: buckets.name,
      groupId: buckets.groupId,
      groupName: groups.displayName,
      hospitalName: printTemplates.hospitalName,
    })
    .from(reports)
    .innerJoin(exams, eq(exams.id, reports.id))
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .innerJoin(groups, eq(groups.id, buckets.groupId))
    .leftJoin(printTemplates, eq(printTemplates.bucketId, exams.bucketId))
    .where(and(eq(reports.id, reportId), isNull(exams.deletedTime)));
  return row;
}

/** The report an exam is written in (its primary exam's), for a live exam. */
export async function reportIdOfExam(
  db: Db,
  examId: string,
): Promise<{ reportId: string; bucketId: string } | undefined> {
  const [row] = await db
    .select({ reportId: sql<string>`coalesce(${coExams.primaryExamId}, ${exams.id})`, bucketId: exams.bucketId })
    .from(exams)
    .leftJoin(coExams, eq(coExams.examId, exams.id))
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)));
  return row;
}

/** Live exams by id with the report each is written in. */
export async function examsWithReports(db: Db, examIds: string[]) {
  if (examIds.length === 0) return [];
  return db
    .select({
      examId: exams.id,
      bucketId: exams.bucketId,
      patientId: exams.patientId,
      reportId: sql<string>`coalesce(${coExams.primaryExamId}, ${exams.id})`,
      status: reports.status,
      version: reports.version,
    })
    .from(exams)
    .leftJoin(coExams, eq(coExams.examId, exams.id))
    .leftJoin(reports, eq(reports.id, sql`coalesce(${coExams.primaryExamId}, ${exams.id})`))
    .where(and(inArray(exams.id, examIds), isNull(exams.deletedTime)));
}

const examBrief = {
  examId: exams.id,
  modality: exams.modality,
  bodyPart: exams.bodyPart,
  studyDate: exams.studyDate,
  studyDescription: exams.studyDesc,
};

/** The live exams written in a report, its primary first. */
export async function examsOfReport(db: Db, reportId: string) {
  return db
    .select(examBrief)
    .from(exams)
    .where(
      and(
        isNull(exams.deletedTime),
        sql`(${exams.id} = ${reportId} or ${exams.id} in (select ${coExams.examId} from ${coExams} where ${coExams.primaryExamId} = ${reportId}))`,
      ),
    )
    .orderBy(sql`${exams.id} = ${reportId} desc`, asc(exams.created));
}

/**
 * The patient's other reports in the organization that are approved and published now (a live
 * publish link at their current version), newest first.
 */
export async function publishedPast(
  db: Db,
  opts: { bucketId: string; patientId: string; excludeReportId: string; now: Date },
) {
  return db
    .select({ ...examBrief, reportId: reports.id, approvedAt: reports.approvedAt })
    .from(exams)
    .innerJoin(reports, eq(reports.id, exams.id))
    .where(
      and(
        eq(exams.bucketId, opts.bucketId),
        eq(exams.patientId, opts.patientId),
        isNull(exams.deletedTime),
        ne(exams.id, opts.excludeReportId),
        approved,
        sql`exists (select 1 from ${reportShareLinks} l where l.report_id = ${reports.id} and l.kind = 'publish'
          and l.revoked_at is null and l.expires_at > ${opts.now} and l.report_version = ${reports.version})`,
      ),
    )
    .orderBy(desc(exams.studyDate), desc(exams.created))
    .limit(50);
}

/** The version a report's live publish link was made at, if it has one. */
export async function livePublishVersion(db: Db, reportId: string, now: Date): Promise<number | undefined> {
  const [row] = await db
    .select({ v: reportShareLinks.reportVersion })
    .from(reportShareLinks)
    .where(livePublishLink(reportId, now))
    .orderBy(desc(reportShareLinks.createdAt))
    .limit(1);
  return row?.v;
}

/* ---------- the report publish list ---------- */

function stateCondition(state: string, now: Date): SQL | undefined {
  switch (state) {
    case 'revoked':
      return sql`${reportShareLinks.revokedAt} is not null`;
    case 'expired':
      return sql`(${reportShareLinks.revokedAt} is null and ${reportShareLinks.expiresAt} <= ${now})`;
    case 'live':
      return sql`(${reportShareLinks.revokedAt} is null and ${reportShareLinks.expiresAt} > ${now})`;
    case 'superseded':
      return sql`(${reports.version} <> ${reportShareLinks.reportVersion} or not ${approved})`;
  }
  return undefined;
}

function filterCondition(f: PublishFilter, now: Date): SQL | undefined {
  const values = f.values.filter((v) => v !== '');
  if (values.length === 0) return undefined;
  switch (f.field) {
    case 'patientName':
      return or(...values.map((v) => ilike(exams.patientName, `%${escapeLike(v)}%`)));
    case 'patientId':
      return inArray(exams.patientId, values);
    case 'modality':
      return or(...values.map((v) => ilike(exams.modality, `%${escapeLike(v)}%`)));
    case 'state':
      return or(...values.map((v) => stateCondition(v, now) ?? sql`false`));
    case 'publishedDate': {
      const [from, to] = f.values;
      const isDate = (d: string | undefined): d is string => !!d && /^\d{4}-\d{2}-\d{2}$/.test(d);
      const parts: SQL[] = [];
      if (isDate(from)) {
        parts.push(sql`${reportShareLinks.createdAt}::date >= ${from}::date`);
      }
      if (isDate(to)) {
        parts.push(sql`${reportShareLinks.createdAt}::date <= ${to}::date`);
      }
      return parts.length > 0 ? and(...parts) : undefined;
    }
  }
}

/** Publish links of these organizations, newest first, with their exam, report and publisher. */
export async function publishPage(
  db: Db,
  opts: { bucketIds: string[]; filters: PublishFilter[]; skip: number; limit: number; now: Date },
) {
  if (opts.bucketIds.length === 0) return { rows: [], count: 0 };
  const where = and(
    eq(reportShareLinks.kind, 'publish'),
    inArray(reportShareLinks.bucketId, opts.bucketIds),
    isNull(exams.deletedTime),
    ...opts.filters.map((f) => filterCondition(f, opts.now)),
  );
  const rows = await db
    .select({
      link: reportShareLinks,
      exam: exams,
      status: reports.status,
      version: reports.version,
      bucketName: buckets.name,
      publisherName: accounts.name,
      publisherUsername: accounts.username,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(reportShareLinks)
    .innerJoin(exams, eq(exams.id, reportShareLinks.reportId))
    .innerJoin(reports, eq(reports.id, reportShareLinks.reportId))
    .innerJoin(buckets, eq(buckets.id, reportShareLinks.bucketId))
    .leftJoin(accounts, eq(accounts.id, reportShareLinks.createdBy))
    .where(where)
    .orderBy(desc(reportShareLinks.createdAt), desc(reportShareLinks.id))
    .limit(opts.limit)
    .offset(opts.skip);
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && opts.skip > 0) {
    const [c] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(reportShareLinks)
      .innerJoin(exams, eq(exams.id, reportShareLinks.reportId))
      .innerJoin(reports, eq(reports.id, reportShareLinks.reportId))
      .where(where);
    count = c?.n ?? 0;
  }
  return { rows, count };
}

/* ---------- /web: the group's integration secret and the report it opens ---------- */

export async function findWebSecret(db: Db, groupId: string) {
  const [row] = await db.select().from(groupIntegrations).where(eq(groupIntegrations.groupId, groupId));
  return row;
}

export async function saveWebSecret(db: Db, groupId: string, secret: string, now: Date) {
  const [row] = await db
    .insert(groupIntegrations)
    .values({ groupId, webSecret: secret, createdAt: now })
    .onConflictDoUpdate({ target: groupIntegrations.groupId, set: { webSecret: secret, rotatedAt: now } })
    .returning();
  return row!;
}

/**
 * The group's latest approved report of the patient (and of the order, when its accession number
 * is given): exams of the group's organizations, a co-written exam's report being its primary's.
 */
export async function webReportId(
  db: Db,
  opts: { groupId: string; patientId: string; serviceRequestId?: string | undefined },
): Promise<string | undefined> {
  const reportId = sql<string>`coalesce(${coExams.primaryExamId}, ${exams.id})`;
  const [row] = await db
    .select({ reportId, approvedAt: reports.approvedAt })
    .from(exams)
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .leftJoin(coExams, eq(coExams.examId, exams.id))
    .innerJoin(reports, eq(reports.id, reportId))
    .where(
      and(
        eq(buckets.groupId, opts.groupId),
        eq(exams.patientId, opts.patientId),
        opts.serviceRequestId ? eq(exams.accessionNumber, opts.serviceRequestId) : undefined,
        isNull(exams.deletedTime),
        approved,
      ),
    )
    .orderBy(sql`${reports.approvedAt} desc nulls last`, desc(exams.created))
    .limit(1);
  return row?.reportId;
}
