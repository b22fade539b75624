import { z } from 'zod';

/**
 * The predicted wait of the calling screens (issue 26, "the calling screen shows each room's
 * predicted wait from the same data"): per queue (a room, or the rooms that call from one queue),
 * from its recent pace in exam_steps, the turnaround's record of each exam's steps.
 *
 * Pace of a queue: the median (percentile_cont(0.5), exact) of the minutes between consecutive
 * calls of the queue — each exam's called step (exam_steps.called_at) after the call before it in
 * the same queue on the same hospital day — over the check-in days from today − 13 to today
 * (PACE_WINDOW_DAYS, today included), counting a gap only when the exam called had arrived
 * (exam_steps.arrived_at) by the time of the call before it: the room was busy, never waiting for
 * a patient, so nights, idle spells and the first call of a day count nowhere (the opening hours'
 * pace, not the clock's). Exams cancelled or deleted (exam_steps.live false) and places moved to
 * another queue count nowhere; only the queue's own organization counts.
 *
 * Too little history: fewer than MIN_PACE_SAMPLES such gaps → no pace (null), and then no
 * prediction at all (null, never 0): the screens show nothing.
 *
 * Prediction: the patient at place p of the waiting line (1 = called next, by number) waits about
 * pace × p minutes (the room's current patient and the p − 1 before); a queue's prediction is that
 * of a patient checking in now, behind everyone waiting: pace × (waiting + 1). Rounded to whole
 * minutes, at least 1 (predictedWait).
 */

/** The check-in days the pace reads: today and the 13 before it. */
export const PACE_WINDOW_DAYS = 14;
/** The fewest gaps between calls that make a pace. */
export const MIN_PACE_SAMPLES = 5;

/** Minutes a patient at `place` (1 = next) waits at `paceMinutes` a call; null without a pace. */
export function predictedWait(paceMinutes: number | null, place: number): number | null {
  if (paceMinutes === null || !Number.isFinite(paceMinutes) || place < 1) return null;
  return Math.max(1, Math.round(paceMinutes * place));
}

/** Minutes of a predicted wait (whole, ≥ 1), or null when the queue has too little history. */
export const predictedWaitSchema = z.number().int().min(1).nullable();

/** One queue's pace and the wait of a patient checking in now (QueuePage.predictions). */
export const queuePredictionSchema = z.object({
  queueTypeId: z.string(),
  /** the median minutes between calls (one decimal); null with fewer than MIN_PACE_SAMPLES gaps */
  paceMinutes: z.number().nullable(),
  /** how many gaps between calls the pace is the median of */
  samples: z.number().int(),
  /** the queue's waiting patients today */
  waitingCount: z.number().int(),
  /** pace × (waitingCount + 1), whole minutes; null without a pace */
  predictedWaitMinutes: predictedWaitSchema,
});
export type QueuePrediction = z.infer<typeof queuePredictionSchema>;
