import { eq } from 'drizzle-orm';
import { buckets, exams, notifications, type OrderRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { examNotificationRows } from '../notifications/index.js';

/** The applicant hears that the experts' approved report is on the exam (notification remote_report). */
export async function notifyReportBack(tx: Db, order: OrderRow, now: Date): Promise<void> {
  if (!order.applicantId) return;
  const [exam] = await tx
    .select({
      patientName: exams.patientName,
      modality: exams.modality,
      bodyPart: exams.bodyPart,
      created: exams.created,
      bucketName: buckets.name,
    })
    .from(exams)
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .where(eq(exams.id, order.examId))
    .limit(1);
  if (!exam) return;
  const rows = examNotificationRows(
    {
      accountIds: [order.applicantId],
      groupId: order.groupId,
      bucketId: order.requestBucketId,
      examId: order.examId,
      payload: {
        id: order.examId,
        patientName: exam.patientName,
        modality: exam.modality,
        bodyPart: exam.bodyPart,
        examTime: exam.created.toISOString(),
        bucketName: exam.bucketName,
      },
    },
    'remote_report',
    now,
  );
  await tx.insert(notifications).values(rows).onConflictDoNothing();
}
