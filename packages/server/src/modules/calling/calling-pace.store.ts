import { MIN_PACE_SAMPLES } from '@yyp/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import { queueExams } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** A queue's pace: the median minutes between its calls, and how many gaps it is the median of. */
export interface QueuePace {
  queueTypeId: string;
  /** null with fewer than MIN_PACE_SAMPLES gaps */
  medianMinutes: number | null;
  samples: number;
}

/**
 * The pace of each queue of an organization over the check-in days `fromDay`..`toDay` (hospital
 * days, YYYY-MM-DD), as contracts calling-wait.ts defines it: from exam_steps (the turnaround's
 * steps, kept by migration 0045's triggers), each exam's called and arrived steps, with its place
 * in a queue (queue_exams, not moved) naming the queue and the day. The gaps between consecutive
 * calls of a queue on one day, when the exam called had arrived by the call before it; their
 * median by percentile_cont (exact). Read here and not from the statistics module's stores: the
 * calling module keeps its own SQL over the shared table.
 *
 * Queues without a gap are absent; the index queue_exams_bucket_day_idx reads the days, and
 * exam_steps_scheduled_idx each exam's steps.
 */
export async function queuePaces(db: Db, bucketId: string, fromDay: string, toDay: string): Promise<QueuePace[]> {
  const result = await db.execute(sql`
    with calls as (
      select qe.queue_type_id as q, qe.check_in_date as d, s.called_at as called, s.arrived_at as arrived
      from queue_exams qe
      join exam_steps s on s.scheduled_exam_id = qe.scheduled_exam_id
      where qe.bucket_id = ${bucketId} and s.bucket_id = ${bucketId}
        and qe.check_in_date >= ${fromDay} and qe.check_in_date <= ${toDay}
        and qe.status <> 'moved' and s.live and s.called_at is not null
    ), gaps as (
      select q, arrived, called, lag(called) over (partition by q, d order by called) as before
      from calls
    )
    select q as "queueTypeId", count(*)::int as samples,
      percentile_cont(0.5) within group (order by extract(epoch from (called - before))::float8 / 60) as "medianMinutes"
    from gaps
    where before is not null and arrived is not null and arrived <= before
    group by q`);
  const rows = (result as unknown as { rows: { queueTypeId: string; samples: number; medianMinutes: unknown }[] }).rows;
  return rows.map((r) => {
    const samples = Number(r.samples);
    const median = r.medianMinutes === null ? null : Number(r.medianMinutes);
    return { queueTypeId: r.queueTypeId, samples, medianMinutes: samples >= MIN_PACE_SAMPLES ? median : null };
  });
}

/** The waiting places of an organization's queues on a day, by queue and number (the waiting lines). */
export function waitingLines(
  db: Db,
  bucketId: string,
  day: string,
): Promise<{ id: string; queueTypeId: string; queueNo: number }[]> {
  return db
    .select({ id: queueExams.id, queueTypeId: queueExams.queueTypeId, queueNo: queueExams.queueNo })
    .from(queueExams)
    .where(and(eq(queueExams.bucketId, bucketId), eq(queueExams.checkInDate, day), eq(queueExams.status, 'waiting')))
    .orderBy(asc(queueExams.queueTypeId), asc(queueExams.queueNo));
}
