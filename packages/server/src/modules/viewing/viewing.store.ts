import { and, asc, eq, inArray, like, or, sql } from 'drizzle-orm';
import { accounts, exams, instances, series, type AccountRow, type ExamRow } from '../../db/schema.js';
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

/** A stored instance of an exam as the viewer's object calls read it. */
export interface ExamObjectRow {
  seriesUid: string;
  sopUid: string;
  sopClassUid: string;
  instanceNumber: number | null;
  blobKey: string;
  size: number;
}

const objectColumns = {
  seriesUid: series.seriesUid,
  sopUid: instances.sopInstanceUid,
  sopClassUid: instances.sopClassUid,
  instanceNumber: instances.instanceNumber,
  blobKey: instances.blobKey,
  size: instances.size,
};

/**
 * The exam's instances of the SOP classes the viewer shows other than images (SR documents, key
 * object selections, encapsulated PDF, presentation states), at most `limit`, by series then number.
 */
export async function examObjects(
  db: Db,
  exam: { id: string; bucketId: string },
  classes: { srPrefix?: string; exact: string[] },
  limit: number,
): Promise<ExamObjectRow[]> {
  return db
    .select(objectColumns)
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .where(
      and(
        eq(instances.examId, exam.id),
        eq(instances.bucketId, exam.bucketId),
        classes.srPrefix
          ? or(like(instances.sopClassUid, `${classes.srPrefix}%`), inArray(instances.sopClassUid, classes.exact))
          : inArray(instances.sopClassUid, classes.exact),
      ),
    )
    .orderBy(
      sql`${series.seriesNumber} asc nulls last`,
      asc(series.seriesUid),
      sql`${instances.instanceNumber} asc nulls last`,
    )
    .limit(limit);
}

/** One instance of the exam, named by its series and SOP Instance UIDs. */
export async function examObject(
  db: Db,
  exam: { id: string; bucketId: string },
  seriesUid: string,
  sopUid: string,
): Promise<ExamObjectRow | undefined> {
  const [row] = await db
    .select(objectColumns)
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .where(
      and(
        eq(instances.examId, exam.id),
        eq(instances.bucketId, exam.bucketId),
        eq(instances.sopInstanceUid, sopUid),
        eq(series.seriesUid, seriesUid),
      ),
    )
    .limit(1);
  return row;
}

/** The series of the exam's instances among `sopUids` (the images a key object names). */
export async function seriesOfInstances(
  db: Db,
  exam: { id: string; bucketId: string },
  sopUids: string[],
): Promise<{ sopUid: string; seriesUid: string }[]> {
  if (sopUids.length === 0) return [];
  return db
    .select({ sopUid: instances.sopInstanceUid, seriesUid: series.seriesUid })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .where(
      and(
        eq(instances.examId, exam.id),
        eq(instances.bucketId, exam.bucketId),
        inArray(instances.sopInstanceUid, sopUids),
      ),
    );
}
