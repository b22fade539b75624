import crypto from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { exams, instances, orders, patients, reports, series, type OrderRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/**
 * Sharing an ordered exam into the expert organization (issue 24 "the remote read"): the experts get
 * an exam row of their own (same patient data, the same stored instances: their blob keys are
 * referenced, no bytes copied), so their study list, viewer and report workstation work unchanged
 * and see nothing else of the requester. Idempotent: an order already shared answers its exam.
 */
export async function shareExam(tx: Db, order: OrderRow, now: Date): Promise<string> {
  if (order.targetExamId) return order.targetExamId;
  const [source] = await tx.select().from(exams).where(eq(exams.id, order.examId)).limit(1);
  if (!source) throw new Error(`order ${order.id}: exam ${order.examId} is gone`);
  const target = order.targetBucketId;
  // The same study already in the expert organization (shared before, or sent there too) is reused.
  const [existing] = await tx
    .select({ id: exams.id })
    .from(exams)
    .where(and(eq(exams.bucketId, target), eq(exams.storeUid, source.storeUid)))
    .limit(1);
  let examId = existing?.id;
  if (!examId) {
    const [patient] = await tx.select().from(patients).where(eq(patients.id, source.patientKeyId)).limit(1);
    await tx
      .insert(patients)
      .values({ ...patient!, id: crypto.randomUUID(), bucketId: target, createdAt: now, updatedAt: now })
      .onConflictDoNothing();
    const [targetPatient] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.bucketId, target), eq(patients.patientKey, patient!.patientKey)))
      .limit(1);
    examId = crypto.randomUUID();
    await tx.insert(exams).values({
      ...source,
      id: examId,
      bucketId: target,
      patientKeyId: targetPatient!.id,
      source: 'remote',
      reportStatus: 'none',
      assigneeId: null,
      assignedAt: null,
      aiStatus: '',
      aiResult: null,
      studyPrinted: false,
      criticalFlag: false,
      deletedTime: null,
      created: now,
      updated: now,
    });
    const ss = await tx.select().from(series).where(eq(series.examId, source.id));
    const seriesIds = new Map(ss.map((s) => [s.id, crypto.randomUUID()]));
    if (ss.length > 0) {
      await tx
        .insert(series)
        .values(ss.map((s) => ({ ...s, id: seriesIds.get(s.id)!, examId: examId!, bucketId: target, createdAt: now })));
      const is = await tx.select().from(instances).where(eq(instances.examId, source.id));
      for (let i = 0; i < is.length; i += 500) {
        await tx
          .insert(instances)
          .values(
            is.slice(i, i + 500).map((x) => ({
              ...x,
              id: crypto.randomUUID(),
              seriesId: seriesIds.get(x.seriesId)!,
              examId: examId!,
              bucketId: target,
              createdAt: now,
            })),
          )
          .onConflictDoNothing();
      }
    }
  }
  await tx
    .update(orders)
    .set({ targetExamId: examId, updated: now })
    .where(and(eq(orders.id, order.id)));
  return examId;
}

/** Takes a shared exam back (a cancelled order): the experts' copy goes (its instances' blobs stay, they are the requester's). */
export async function unshareExam(tx: Db, order: OrderRow): Promise<void> {
  if (!order.targetExamId) return;
  const [target] = await tx
    .select({ id: exams.id, source: exams.source })
    .from(exams)
    .where(eq(exams.id, order.targetExamId))
    .limit(1);
  // Only an exam the share made (source 'remote') goes; one the experts held already stays theirs.
  if (target?.source === 'remote') {
    await tx.delete(instances).where(eq(instances.examId, target.id));
    await tx.delete(exams).where(eq(exams.id, target.id));
  }
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
