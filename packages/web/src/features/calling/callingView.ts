import { QUEUE_ACTIONS, type QueueAction, type QueueExam, type ScreenPatient } from '@yyp/contracts';

/**
 * Pure parts of the calling screens (issue 23): the day's queue as /calling's three lists, the
 * buttons a row shows, and which calls a screen has not announced yet.
 */

export type QueueList = 'waiting' | 'called' | 'missed';
export const QUEUE_LISTS: readonly QueueList[] = ['waiting', 'called', 'missed'];

/** The day's open queue as three lists: waiting in number order, called newest first, missed by number. */
export function partitionQueue(items: readonly QueueExam[]): Record<QueueList, QueueExam[]> {
  const lists: Record<QueueList, QueueExam[]> = { waiting: [], called: [], missed: [] };
  for (const item of items) {
    if (item.status === 'waiting' || item.status === 'called' || item.status === 'missed') {
      lists[item.status].push(item);
    }
  }
  lists.waiting.sort((a, b) => a.queueNo - b.queueNo);
  lists.missed.sort((a, b) => a.queueNo - b.queueNo);
  lists.called.sort((a, b) => (b.calledAt ?? '').localeCompare(a.calledAt ?? '') || a.queueNo - b.queueNo);
  return lists;
}

/** A row's buttons: the actions its status allows (from the server) plus resort for a waiting one. */
export type RowAction = QueueAction | 'resort';

export function rowActions(exam: QueueExam, otherQueues: number): RowAction[] {
  const allowed = QUEUE_ACTIONS.filter((a) => exam.actions.includes(a) && (a !== 'move' || otherQueues > 0));
  return exam.status === 'waiting' ? [...allowed, 'resort'] : allowed;
}

/** The numbers a waiting exam may move to (the other waiting exams' numbers). */
export function resortTargets(waiting: readonly QueueExam[], id: string): number[] {
  return waiting.filter((w) => w.id !== id).map((w) => w.queueNo);
}

/** The identity of one call: the same patient called again is a new call. */
export const callKey = (call: Pick<ScreenPatient, 'queueExamId' | 'calledAt'>) =>
  `${call.queueExamId}@${call.calledAt ?? ''}`;

/** How many announced calls a screen remembers (it runs for days: the memory stays bounded). */
export const SEEN_CALLS_LIMIT = 200;

/**
 * The calls of `calls` not announced yet, oldest first, and the remembered keys after announcing
 * them (the newest SEEN_CALLS_LIMIT). `seen` null is the first load: nothing is announced (the
 * calls on show were said before the screen opened), all are remembered.
 */
export function unannouncedCalls(
  seen: readonly string[] | null,
  calls: readonly ScreenPatient[],
): { fresh: ScreenPatient[]; seen: string[] } {
  const known = new Set(seen ?? []);
  const fresh =
    seen === null
      ? []
      : calls
          .filter((c) => c.status === 'called' && !known.has(callKey(c)))
          .sort((a, b) => (a.calledAt ?? '').localeCompare(b.calledAt ?? ''));
  const next = [...(seen ?? []), ...calls.map(callKey).filter((k) => !known.has(k))];
  return { fresh, seen: next.slice(-SEEN_CALLS_LIMIT) };
}

/** The clock of the screen: HH:mm:ss and the date, in the browser's time zone. */
export function clockText(now: Date): { time: string; date: string } {
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    time: `${two(now.getHours())}:${two(now.getMinutes())}:${two(now.getSeconds())}`,
    date: `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`,
  };
}
