import { eq, inArray } from 'drizzle-orm';
import { exams, orders, reports, type OrderRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { copyExamInto, removeExamCopy } from '../exams/index.js';

/**
 * Sharing an ordered exam into the expert organization (issue 24 "the remote read"): the experts get
 * an exam row of their own (the exams face's copyExamInto, source 'remote'), so their study list,
 * viewer and report workstation work unchanged and see nothing else of the requester. Idempotent:
 * an order already shared answers its exam.
 */
export async function shareExam(tx: Db, order: OrderRow, now: Date): Promise<string> {
  if (order.targetExamId) return order.targetExamId;
  const examId = await copyExamInto(tx, {
    examId: order.examId,
    targetBucketId: order.targetBucketId,
    source: 'remote',
    now,
  });
  await tx.update(orders).set({ targetExamId: examId, updated: now }).where(eq(orders.id, order.id));
  return examId;
}

/** Takes a shared exam back (a cancelled order): the experts' copy goes (its instances' blobs stay, they are the requester's). */
export async function unshareExam(tx: Db, order: OrderRow): Promise<void> {
  // Only an exam the share made (source 'remote') goes; one the experts held already stays theirs.
  if (order.targetExamId) await removeExamCopy(tx, order.targetExamId, 'remote');
}

/** The approved report of an exam (a report's id is its primary exam's id). */
export async function reportRow(db: Db, reportId: string) {
  return (await db.select().from(reports).where(eq(reports.id, reportId)).limit(1))[0];
}

/**
 * Publishes the experts' approved report to the requester's exam: its report (id = the exam's id)
 * takes the approved content, status and approval, marked as from the expert organization.
 */
export async function publishReportBack(
  tx: Db,
  order: OrderRow,
  approved: NonNullable<Awaited<ReturnType<typeof reportRow>>>,
  now: Date,
): Promise<void> {
  const values = {
    status: approved.status,
    content: approved.content,
    creatorId: approved.creatorId,
    lastUpdaterId: approved.lastUpdaterId,
    issuerId: approved.issuerId,
    approverId: approved.approverId,
    submittedAt: approved.submittedAt,
    approvedAt: approved.approvedAt ?? now,
    lockedBy: null,
    lockedAt: null,
    updatedAt: now,
  };
  const [mine] = await tx.select({ version: reports.version }).from(reports).where(eq(reports.id, order.examId));
  if (mine) {
    await tx
      .update(reports)
      .set({ ...values, version: mine.version + 1 })
      .where(eq(reports.id, order.examId));
  } else {
    await tx
      .insert(reports)
      .values({ id: order.examId, bucketId: order.requestBucketId, version: 1, createdAt: now, ...values });
  }
  await tx.update(exams).set({ reportStatus: approved.status, updated: now }).where(eq(exams.id, order.examId));
}

/** Orders whose shared exam is one of these (the expert side's reports). */
export function ordersOfTargetExams(db: Db, targetExamIds: string[]): Promise<OrderRow[]> {
  if (targetExamIds.length === 0) return Promise.resolve([]);
  return db.select().from(orders).where(inArray(orders.targetExamId, targetExamIds));
}
