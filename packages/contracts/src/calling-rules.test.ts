import { describe, expect, it } from 'vitest';
import {
  announcementText,
  DEFAULT_ANNOUNCEMENT_TEMPLATE,
  nextState,
  planCheckIn,
  planResort,
  QUEUE_ACTIONS,
  QUEUE_STATUSES,
  queueActionsFor,
  unknownPlaceholders,
  type QueueAction,
  type QueueStatus,
  type WaitingSlot,
} from './calling-rules.js';
import { callingSettingsSchema, queueActionSchema } from './calling.js';

/** The whole machine, written out: every status × action pair and where it leads (- refused). */
const TABLE: Record<QueueStatus, Record<QueueAction, QueueStatus | '-'>> = {
  waiting: { call: 'called', recall: '-', pass: '-', return: '-', done: 'done', move: 'moved' },
  called: { call: '-', recall: 'called', pass: 'missed', return: 'waiting', done: 'done', move: 'moved' },
  missed: { call: 'called', recall: '-', pass: '-', return: 'waiting', done: 'done', move: 'moved' },
  done: { call: '-', recall: '-', pass: '-', return: '-', done: '-', move: '-' },
  moved: { call: '-', recall: '-', pass: '-', return: '-', done: '-', move: '-' },
};

describe('the queue machine', () => {
  const pairs = QUEUE_STATUSES.flatMap((s) => QUEUE_ACTIONS.map((a) => [s, a] as const));

  it('is total over status × action (30 pairs)', () => {
    expect(pairs).toHaveLength(30);
  });

  it.each(pairs)('%s + %s', (status, action) => {
    const want = TABLE[status][action];
    expect(nextState(status, action)).toBe(want === '-' ? null : want);
  });

  it('leaves done and moved final, and never leads to moved but by move', () => {
    for (const a of QUEUE_ACTIONS) {
      expect(nextState('done', a)).toBeNull();
      expect(nextState('moved', a)).toBeNull();
    }
    for (const [s, a] of pairs) if (nextState(s, a) === 'moved') expect(a).toBe('move');
  });

  it('lists the allowed actions of each status in QUEUE_ACTIONS order', () => {
    expect(queueActionsFor('waiting')).toEqual(['call', 'done', 'move']);
    expect(queueActionsFor('called')).toEqual(['recall', 'pass', 'return', 'done', 'move']);
    expect(queueActionsFor('missed')).toEqual(['call', 'return', 'done', 'move']);
    expect(queueActionsFor('done')).toEqual([]);
  });
});

const slot = (id: string, queueNo: number, urgent = false): WaitingSlot => ({ id, queueNo, urgent });

describe('numbering at check-in', () => {
  it('gives the next number of the day, in check-in order', () => {
    expect(planCheckIn([], 0, { id: 'n', urgent: false }, true)).toEqual({ queueNo: 1, renumber: [] });
    // numbers 1-3 were called or done; 4 and 5 wait
    expect(planCheckIn([slot('a', 4), slot('b', 5)], 5, { id: 'n', urgent: false }, true)).toEqual({
      queueNo: 6,
      renumber: [],
    });
  });

  it('puts an urgent newcomer after the urgent waiting and before the rest, when the queue says so', () => {
    const waiting = [slot('u', 4, true), slot('a', 5), slot('b', 7)];
    expect(planCheckIn(waiting, 8, { id: 'n', urgent: true }, true)).toEqual({
      queueNo: 5,
      renumber: [
        { id: 'a', queueNo: 7 },
        { id: 'b', queueNo: 9 },
      ],
    });
  });

  it('keeps check-in order for an urgent newcomer when the queue does not put urgent first', () => {
    expect(planCheckIn([slot('a', 1), slot('b', 2)], 2, { id: 'n', urgent: true }, false)).toEqual({
      queueNo: 3,
      renumber: [],
    });
  });

  it('appends an urgent newcomer when every waiting exam is urgent', () => {
    expect(planCheckIn([slot('a', 1, true)], 3, { id: 'n', urgent: true }, true)).toEqual({
      queueNo: 4,
      renumber: [],
    });
  });

  it('uses each number once: the waiting keep the same set of numbers plus the new one', () => {
    const waiting = [slot('a', 2), slot('b', 3, true), slot('c', 6), slot('d', 9)];
    const plan = planCheckIn(waiting, 9, { id: 'n', urgent: true }, true);
    const after = new Map(waiting.map((s) => [s.id, s.queueNo]));
    for (const r of plan.renumber) after.set(r.id, r.queueNo);
    after.set('n', plan.queueNo);
    expect([...after.values()].sort((x, y) => x - y)).toEqual([2, 3, 6, 9, 10]);
    // a (not urgent) was first: the newcomer goes before it
    expect(plan.queueNo).toBe(2);
    expect(after.get('b')).toBe(6);
  });
});

describe('resort', () => {
  const waiting = [slot('a', 3), slot('b', 4), slot('c', 6), slot('d', 7)];

  it('moves a patient forward to the target number, the others one place back', () => {
    expect(planResort(waiting, 'd', 4)).toEqual([
      { id: 'd', queueNo: 4 },
      { id: 'b', queueNo: 6 },
      { id: 'c', queueNo: 7 },
    ]);
  });

  it('moves a patient back, the others one place forward', () => {
    expect(planResort(waiting, 'a', 6)).toEqual([
      { id: 'b', queueNo: 3 },
      { id: 'c', queueNo: 4 },
      { id: 'a', queueNo: 6 },
    ]);
  });

  it('changes nothing when the target is its own number', () => {
    expect(planResort(waiting, 'b', 4)).toEqual([]);
  });

  it('refuses a patient who is not waiting and a number no waiting patient holds', () => {
    expect(planResort(waiting, 'x', 4)).toBeNull();
    expect(planResort(waiting, 'a', 5)).toBeNull();
    expect(planResort(waiting, 'a', 1)).toBeNull();
  });

  it('is a permutation of the waiting numbers for every source and target', () => {
    for (const from of waiting) {
      for (const to of waiting) {
        const plan = planResort(waiting, from.id, to.queueNo)!;
        const after = new Map(waiting.map((s) => [s.id, s.queueNo]));
        for (const r of plan) after.set(r.id, r.queueNo);
        expect([...after.values()].sort((x, y) => x - y)).toEqual([3, 4, 6, 7]);
        expect(after.get(from.id)).toBe(to.queueNo);
      }
    }
  });
});

describe('the announcement', () => {
  it('fills the default template', () => {
    expect(announcementText(DEFAULT_ANNOUNCEMENT_TEMPLATE, { queueNo: 3, name: '王*东', room: 'CT 1' })).toBe(
      '请 3 号 王*东 到 CT 1 检查',
    );
  });

  it('names the placeholders it does not know, and settings refuse them', () => {
    expect(unknownPlaceholders('请 {号} 号 {名字} 到 {诊室}')).toEqual(['名字']);
    expect(unknownPlaceholders(DEFAULT_ANNOUNCEMENT_TEMPLATE)).toEqual([]);
    expect(callingSettingsSchema.safeParse({ announcementTemplate: '{号} {x}' }).success).toBe(false);
    expect(callingSettingsSchema.safeParse({ announcementTemplate: '' }).success).toBe(false);
    expect(callingSettingsSchema.safeParse({ announcementTemplate: 'x'.repeat(201) }).success).toBe(false);
    expect(callingSettingsSchema.parse({})).toEqual({
      announcementTemplate: DEFAULT_ANNOUNCEMENT_TEMPLATE,
      speakFullName: false,
    });
  });

  it('needs a target queue for move only', () => {
    expect(queueActionSchema.safeParse({ action: 'move' }).success).toBe(false);
    expect(queueActionSchema.safeParse({ action: 'move', targetQueueTypeId: 'q' }).success).toBe(true);
    expect(queueActionSchema.safeParse({ action: 'call' }).success).toBe(true);
    expect(queueActionSchema.safeParse({ action: 'skip' }).success).toBe(false);
  });
});
