import type { ExamItem } from '@yyp/contracts';
import { and, inArray, ne } from 'drizzle-orm';
import { orders } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/**
 * Of these exams, those a remote or expert read was applied for (the orders' live order, issue 24;
 * spec 000 §3 exam targetBucketId and isRemoteReportRequested): exam id → the expert organization.
 */
export async function remoteReadsOf(db: Db, examIds: string[]): Promise<Map<string, string>> {
  if (examIds.length === 0) return new Map();
  const rows = await db
    .select({ examId: orders.examId, target: orders.targetBucketId })
    .from(orders)
    .where(and(inArray(orders.examId, examIds), ne(orders.status, 'cancelled')));
  return new Map(rows.map((r) => [r.examId, r.target]));
}

/** The study list's items with their remote read marked (targetBucketId, isRemoteReportRequested), when they have one. */
export async function withRemoteReads(db: Db, items: ExamItem[]): Promise<ExamItem[]> {
  const remote = await remoteReadsOf(
    db,
    items.map((i) => i.id),
  );
  if (remote.size === 0) return items;
  return items.map((i) => {
    const target = remote.get(i.id);
    return target ? { ...i, targetBucketId: target, isRemoteReportRequested: true } : i;
  });
}
