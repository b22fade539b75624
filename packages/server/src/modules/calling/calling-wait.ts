import { hospitalDate, PACE_WINDOW_DAYS, predictedWait, type QueuePrediction } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { queuePaces, waitingLines } from './calling-pace.store.js';

/** Today's predicted waits of an organization: per queue, and per waiting place by its id. */
export interface WaitForecast {
  queues: QueuePrediction[];
  /** a waiting place's predicted minutes (null: its queue has too little history) */
  places: Map<string, number | null>;
}

/**
 * The predicted waits of today (issue 26; contracts calling-wait.ts): each queue's pace over the
 * PACE_WINDOW_DAYS check-in days ending `now`'s hospital day, times each waiting patient's place
 * in its line; for the queues `queueTypeIds` (the organization's, in the order shown).
 */
export async function forecastWaits(
  db: Db,
  bucketId: string,
  queueTypeIds: readonly string[],
  now: Date,
): Promise<WaitForecast> {
  const today = hospitalDate(now);
  const [paces, waiting] = await Promise.all([
    queuePaces(db, bucketId, hospitalDate(now, 1 - PACE_WINDOW_DAYS), today),
    waitingLines(db, bucketId, today),
  ]);
  const paceOf = new Map(paces.map((p) => [p.queueTypeId, p]));
  const places = new Map<string, number | null>();
  const waitingCount = new Map<string, number>();
  for (const w of waiting) {
    const place = (waitingCount.get(w.queueTypeId) ?? 0) + 1;
    waitingCount.set(w.queueTypeId, place);
    places.set(w.id, predictedWait(paceOf.get(w.queueTypeId)?.medianMinutes ?? null, place));
  }
  const queues = queueTypeIds.map((queueTypeId): QueuePrediction => {
    const pace = paceOf.get(queueTypeId);
    const median = pace?.medianMinutes ?? null;
    const count = waitingCount.get(queueTypeId) ?? 0;
    return {
      queueTypeId,
      paceMinutes: median === null ? null : Math.round(median * 10) / 10,
      samples: pace?.samples ?? 0,
      waitingCount: count,
      predictedWaitMinutes: predictedWait(median, count + 1),
    };
  });
  return { queues, places };
}
