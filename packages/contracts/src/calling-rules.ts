import type { Action } from './permissions.js';

/**
 * The calling queue's machine and numbering (spec 000 §3 "Queue exam", §4 check-in status, §6
 * calling_call; issue 23). The spec does not show the queue exam's actions; these are what a
 * waiting room needs. One pure function decides every move, for the server (calling module) and
 * the web's /calling screen alike:
 *
 *            ┌────────── recall ──────────┐
 *            ▼                            │
 *   waiting ──call──► called ─────────────┘
 *     ▲  ▲              │  │ pass
 *     │  └── return ────┘  ▼
 *     │                  missed ──call──► called
 *     └───── return ─────┘
 *   waiting, called, missed ──done──► done       waiting, called, missed ──move──► moved
 *
 * - call: the patient is called to a room (call-next calls the waiting exam with the lowest number).
 * - recall: called again (the count of calls grows), e.g. nobody came yet.
 * - pass: the called patient did not come: to the missed list.
 * - return: back into the queue as waiting, keeping the number (so a missed patient who comes
 *   back is called before those behind) — also undoes a call made by mistake.
 * - done: the patient was seen (or left); it leaves the queue.
 * - move: to another queue (room) of the organization: this exam is closed as moved and the
 *   patient checks in at the end of the other queue.
 * done and moved are final.
 */
export const QUEUE_STATUSES = ['waiting', 'called', 'missed', 'done', 'moved'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

export const QUEUE_ACTIONS = ['call', 'recall', 'pass', 'return', 'done', 'move'] as const;
export type QueueAction = (typeof QUEUE_ACTIONS)[number];

/** The statuses that hold a place on the day's queue (shown on the calling screen). */
export const OPEN_QUEUE_STATUSES: readonly QueueStatus[] = ['waiting', 'called', 'missed'];

const MOVES: Record<QueueStatus, Partial<Record<QueueAction, QueueStatus>>> = {
  waiting: { call: 'called', done: 'done', move: 'moved' },
  called: { recall: 'called', pass: 'missed', return: 'waiting', done: 'done', move: 'moved' },
  missed: { call: 'called', return: 'waiting', done: 'done', move: 'moved' },
  done: {},
  moved: {},
};

/** The status an action leads to from a status, or null when the machine refuses it. */
export function nextState(status: QueueStatus, action: QueueAction): QueueStatus | null {
  return MOVES[status][action] ?? null;
}

/** The actions a queue exam in this status allows, in QUEUE_ACTIONS order. */
export function queueActionsFor(status: QueueStatus): QueueAction[] {
  return QUEUE_ACTIONS.filter((a) => nextState(status, a) !== null);
}

/** The organization action each part of calling needs (spec 000 §6 "queue"). */
export const CALLING_CALL: Action = 'calling_call';
export const CALLING_MANAGE: Action = 'calling_manage_queue';
/** Either opens the organization's calling screen (reading its queue). */
export const CALLING_ACTIONS: readonly Action[] = [CALLING_MANAGE, CALLING_CALL];

/* ---------- numbering ---------- */

/** A waiting exam of one queue and day, as the numbering sees it. */
export interface WaitingSlot {
  id: string;
  queueNo: number;
  urgent: boolean;
}
/** A new number for one queue exam. */
export interface Renumbering {
  id: string;
  queueNo: number;
}

/**
 * Queue numbers are per queue type and day, 1, 2, 3 … in check-in order, and a number once called,
 * passed, done or moved never changes (the screen showed it). Only waiting exams are renumbered,
 * among the numbers they hold: `arrange` gives the waiting exams, in their new order, the same set
 * of numbers ascending, and answers the ones whose number changed.
 */
function arrange(order: readonly { id: string }[], numbers: readonly number[]): Renumbering[] {
  const sorted = [...numbers].sort((a, b) => a - b);
  return order.map((slot, i) => ({ id: slot.id, queueNo: sorted[i]! }));
}

const changed = (before: readonly WaitingSlot[], after: Renumbering[]): Renumbering[] => {
  const was = new Map(before.map((s) => [s.id, s.queueNo]));
  return after.filter((r) => was.get(r.id) !== r.queueNo);
};

/**
 * A check-in: the newcomer takes the next number of the day (`lastNo` + 1, `lastNo` the highest
 * number the queue issued that day, 0 for none). When the queue puts urgent exams first and the
 * newcomer is urgent, it goes before every waiting exam that is not urgent (after the urgent ones
 * already waiting): it takes that place's number and those behind move one number on.
 */
export function planCheckIn(
  waiting: readonly WaitingSlot[],
  lastNo: number,
  newcomer: { id: string; urgent: boolean },
  urgentFirst: boolean,
): { queueNo: number; renumber: Renumbering[] } {
  const queueNo = lastNo + 1;
  const sorted = [...waiting].sort((a, b) => a.queueNo - b.queueNo);
  if (!(urgentFirst && newcomer.urgent)) return { queueNo, renumber: [] };
  const at = sorted.findIndex((s) => !s.urgent);
  if (at < 0) return { queueNo, renumber: [] };
  const order = [...sorted.slice(0, at), { id: newcomer.id }, ...sorted.slice(at)];
  const placed = arrange(order, [...sorted.map((s) => s.queueNo), queueNo]);
  return {
    queueNo: placed.find((r) => r.id === newcomer.id)!.queueNo,
    renumber: changed(
      sorted,
      placed.filter((r) => r.id !== newcomer.id),
    ),
  };
}

/**
 * Resort: the waiting exam `id` moves to the place of the waiting exam numbered `targetQueueNo`
 * and takes its number; the waiting exams between move one place towards where it was. Answers
 * every changed number, or null when `id` is not waiting or no waiting exam holds `targetQueueNo`.
 */
export function planResort(waiting: readonly WaitingSlot[], id: string, targetQueueNo: number): Renumbering[] | null {
  const sorted = [...waiting].sort((a, b) => a.queueNo - b.queueNo);
  const from = sorted.findIndex((s) => s.id === id);
  const to = sorted.findIndex((s) => s.queueNo === targetQueueNo);
  if (from < 0 || to < 0) return null;
  const order = [...sorted];
  const [moving] = order.splice(from, 1);
  order.splice(to, 0, moving!);
  return changed(
    sorted,
    arrange(
      order,
      sorted.map((s) => s.queueNo),
    ),
  );
}

/* ---------- the announcement ---------- */

/** The placeholders of an announcement template: number, name, room. */
export const ANNOUNCEMENT_PLACEHOLDERS = ['号', '姓名', '诊室'] as const;
export const DEFAULT_ANNOUNCEMENT_TEMPLATE = '请 {号} 号 {姓名} 到 {诊室} 检查';

/** The placeholders a template names that are not ANNOUNCEMENT_PLACEHOLDERS (a template with any is refused). */
export function unknownPlaceholders(template: string): string[] {
  const names = [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
  return [...new Set(names.filter((n) => !(ANNOUNCEMENT_PLACEHOLDERS as readonly string[]).includes(n)))];
}

/** The text announced for a call: the template with its placeholders filled in. */
export function announcementText(template: string, call: { queueNo: number; name: string; room: string }): string {
  return template
    .replaceAll('{号}', String(call.queueNo))
    .replaceAll('{姓名}', call.name)
    .replaceAll('{诊室}', call.room)
    .replace(/\s+/g, ' ')
    .trim();
}
