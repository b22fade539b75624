import { asc, eq, sql } from 'drizzle-orm';
import { accounts, exams, series, type AccountRow, type ExamRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

type SeriesRow = typeof series.$inferSelect;

/** The viewer's queries (viewing.service.ts); its frames and metadata come through DICOMweb. */

/** The account a viewer path acts for, as stored now. */
export async function viewerAccount(db: Db, accountId: string): Promise<AccountRow | undefined> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return account;
}

/** The exam row, deleted or not. */
export async function examById(db: Db, examId: string): Promise<ExamRow | undefined> {
  const [exam] = await db.select().from(exams).where(eq(exams.id, examId)).limit(1);
  return exam;
}

/** The exam's series by series number (unnumbered last), then arrival. */
export async function seriesOfExam(db: Db, examId: string): Promise<SeriesRow[]> {
  return db
    .select()
    .from(series)
    .where(eq(series.examId, examId))
    .orderBy(sql`${series.seriesNumber} asc nulls last`, asc(series.createdAt));
}
