import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONSULTATION_EVENTS,
  CONSULTATION_OPS,
  CONSULTATION_OP_EVENT,
  CONSULTATION_STATUS_VALUES,
  allowedConsultationOps,
  consultationClosed,
  consultationOpStatuses,
  consultationRefusal,
  linkableAsHistory,
  nextConsultationStatus,
  type ConsultationFacts,
  type ConsultationOp,
  type ConsultationRefusal,
  type ConsultationStatus,
} from './consultation-rules.js';
import type { PaymentStatus } from './billing.js';
import { ACTION_CATALOGUE, type Action } from './permissions.js';

/**
 * The consultation's machine and who may do what (spec 000 §4, §5, §6; issue 25), checked over
 * every status × every combination of the boolean facts × the seven consultation actions that
 * decide something, present or absent on each side; the other actions are shown to change nothing.
 */
const { pending, scheduled, completed, canceled } = CONSULTATION_STATUS_VALUES;
const STATUSES: ConsultationStatus[] = [pending, scheduled, completed, canceled];
const OPEN = [pending, scheduled];
const ALL = STATUSES;

/** The seven consultation actions the rules read (consultation_create only lets one request). */
const DECIDING: Action[] = [
  'consultation_update',
  'consultation_delete',
  'consultation_clinicCase_create',
  'consultation_clinicCase_delete',
  'consultation_Exam_create',
  'consultation_Exam_delete',
  'consultation_submitSuggestion',
];
const BOOLEANS = ['requester', 'creator', 'expert', 'joiner', 'target', 'hasExam', 'hasResult', 'rated'] as const;
/** The fee's payment status (spec 001 §9 codes), null where the consultation is free. */
const PAYMENTS: (PaymentStatus | null)[] = [null, 0, 1, 2, 3, 4];

type F = ConsultationFacts;
const anySide = (f: F) => f.requester || f.expert || f.joiner || f.target;
const editor = (f: F) => f.requester && (f.creator || f.sourceActions.has('consultation_update'));
const src = (a: Action) => (f: F) => f.requester && f.sourceActions.has(a);
const writer = (f: F) => f.expert && f.targetActions.has('consultation_submitSuggestion');
/** Paid, refunding or partly refunded: refunded before it is cancelled or deleted. */
const held = (f: F): ConsultationRefusal | null => ([1, 2, 4].includes(f.payment ?? -1) ? 'ConsultationPaid' : null);

/** Spec 000 §4–§6 as a table: who, in which statuses, and what else each op needs. */
const SPEC: Record<
  ConsultationOp,
  { who: (f: F) => boolean; in: number[]; needs?: (f: F) => ConsultationRefusal | null }
> = {
  view: { who: anySide, in: ALL },
  print: { who: anySide, in: ALL },
  update: { who: editor, in: OPEN },
  visit: { who: editor, in: OPEN },
  link: { who: editor, in: OPEN },
  unlink: { who: editor, in: OPEN },
  bindExam: { who: src('consultation_Exam_create'), in: OPEN },
  unbindExam: { who: src('consultation_Exam_delete'), in: OPEN },
  addCase: { who: src('consultation_clinicCase_create'), in: OPEN },
  deleteCase: { who: src('consultation_clinicCase_delete'), in: OPEN },
  setMembers: { who: (f) => f.target, in: OPEN },
  schedule: {
    who: (f) => f.target,
    in: [pending],
    needs: (f) => (!f.hasExam ? 'ConsultationNoExam' : f.payment === 0 ? 'ConsultationUnpaid' : null),
  },
  complete: {
    who: (f) => f.target || writer(f),
    in: [scheduled],
    needs: (f) => (f.hasResult ? null : 'ConsultationNoResult'),
  },
  cancel: { who: (f) => editor(f) || f.target, in: OPEN, needs: held },
  delete: { who: src('consultation_delete'), in: [pending, canceled], needs: held },
  suggest: { who: writer, in: [scheduled] },
  writeResult: { who: writer, in: [scheduled] },
  uploadResult: { who: writer, in: [scheduled] },
  rate: { who: editor, in: [completed], needs: (f) => (f.rated ? 'RatingAlreadySubmitted' : null) },
  video: { who: anySide, in: [scheduled] },
};

/** The refusal in the spec's order: not seen, not the one, wrong time, precondition. */
function expected(op: ConsultationOp, f: F): ConsultationRefusal | null {
  if (!anySide(f)) return 'NotFound';
  const rule = SPEC[op];
  if (!rule.who(f)) return 'InsufficientPermissions';
  if (!rule.in.includes(f.status)) return 'ConsultationWrongStatus';
  return rule.needs?.(f) ?? null;
}

/** Every status × every boolean fact × every payment status × every subset of the deciding actions. */
function* everyFacts(): Generator<F> {
  for (const payment of PAYMENTS) yield* factsWith(payment);
}

function* factsWith(payment: PaymentStatus | null): Generator<F> {
  for (const status of STATUSES) {
    for (let bits = 0; bits < 1 << BOOLEANS.length; bits++) {
      // Every subset of the seven on the source's side; on the target's, with and without the one the
      // rules read there (consultation_submitSuggestion), the others present (they must not matter).
      for (let acts = 0; acts < 1 << (DECIDING.length + 1); acts++) {
        const sourceActions = new Set(DECIDING.filter((_, i) => acts & (1 << i)));
        const writes = (acts & (1 << DECIDING.length)) !== 0;
        const targetActions = new Set(DECIDING.filter((a) => writes || a !== 'consultation_submitSuggestion'));
        const b = (i: number) => (bits & (1 << i)) !== 0;
        yield {
          status,
          requester: b(0),
          creator: b(1),
          expert: b(2),
          joiner: b(3),
          target: b(4),
          hasExam: b(5),
          hasResult: b(6),
          rated: b(7),
          payment,
          sourceActions,
          targetActions,
        };
      }
    }
  }
}

describe('the status machine', () => {
  it('moves pending → scheduled → completed, cancels an open one, and nothing else', () => {
    const table = STATUSES.map((s) => CONSULTATION_EVENTS.map((e) => nextConsultationStatus(s, e)));
    expect(table).toEqual([
      [scheduled, null, canceled],
      [null, completed, canceled],
      [null, null, null],
      [null, null, null],
    ]);
  });

  it('completed and canceled are final: closed, no move, no change op allowed', () => {
    expect(STATUSES.filter(consultationClosed)).toEqual([completed, canceled]);
    const changing = CONSULTATION_OPS.filter((op) => !['view', 'print', 'rate', 'delete'].includes(op));
    for (const op of changing) {
      expect(
        consultationOpStatuses(op).some((s) => consultationClosed(s)),
        op,
      ).toBe(false);
    }
    // A canceled one may only be read, printed or deleted; a completed one read, printed, rated.
    expect(CONSULTATION_OPS.filter((op) => consultationOpStatuses(op).includes(canceled))).toEqual([
      'view',
      'print',
      'delete',
    ]);
    expect(CONSULTATION_OPS.filter((op) => consultationOpStatuses(op).includes(completed))).toEqual([
      'view',
      'print',
      'rate',
    ]);
  });

  it('links only a completed consultation as history', () => {
    expect(STATUSES.filter(linkableAsHistory)).toEqual([completed]);
  });

  it("ties each moving op to the machine's event, allowed exactly where the machine moves", () => {
    expect(CONSULTATION_OP_EVENT).toEqual({ schedule: 'schedule', complete: 'complete', cancel: 'cancel' });
    for (const [op, event] of Object.entries(CONSULTATION_OP_EVENT) as [ConsultationOp, 'schedule'][]) {
      expect(consultationOpStatuses(op), op).toEqual(STATUSES.filter((s) => nextConsultationStatus(s, event) !== null));
    }
  });
});

describe('who may do what', () => {
  it('answers the spec over every payment × status × boolean fact × deciding action on each side', () => {
    let checked = 0;
    const wrong: string[] = [];
    for (const f of everyFacts()) {
      for (const op of CONSULTATION_OPS) {
        checked++;
        const got = consultationRefusal(op, f);
        if (got !== expected(op, f) && wrong.length < 5) {
          wrong.push(
            `${op} ${JSON.stringify({ ...f, sourceActions: [...f.sourceActions], targetActions: [...f.targetActions] })} → ${got}`,
          );
        }
      }
      if (wrong.length >= 5) break;
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(PAYMENTS.length * STATUSES.length * 256 * 256 * CONSULTATION_OPS.length);
  }, 60_000);

  it("allows exactly the ops that are not refused (the detail's `can`)", () => {
    let n = 0;
    for (const f of everyFacts()) {
      if (n++ % 97 !== 0) continue;
      expect(allowedConsultationOps(f)).toEqual(CONSULTATION_OPS.filter((op) => expected(op, f) === null));
    }
  }, 60_000);

  it('is not moved by consultation actions the rules do not read, on either side', () => {
    const all = [...ACTION_CATALOGUE.consultation] as Action[];
    const facts = fc.record({
      status: fc.constantFrom(...STATUSES),
      requester: fc.boolean(),
      creator: fc.boolean(),
      expert: fc.boolean(),
      joiner: fc.boolean(),
      target: fc.boolean(),
      hasExam: fc.boolean(),
      hasResult: fc.boolean(),
      rated: fc.boolean(),
      payment: fc.constantFrom(...PAYMENTS),
      sourceActions: fc.subarray(all).map((a) => new Set(a)),
      targetActions: fc.subarray(all).map((a) => new Set(a)),
    });
    fc.assert(
      fc.property(facts, fc.constantFrom(...CONSULTATION_OPS), (f, op) => {
        expect(consultationRefusal(op, f)).toBe(expected(op, f));
        // consultation_create decides nothing here: with or without it on both sides, the same answer.
        const without = (s: ReadonlySet<Action>) => new Set([...s].filter((a) => a !== 'consultation_create'));
        const bare = { ...f, sourceActions: without(f.sourceActions), targetActions: without(f.targetActions) };
        expect(consultationRefusal(op, bare)).toBe(consultationRefusal(op, f));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses in order: not found, not allowed, wrong status, then the precondition', () => {
    const base: F = {
      status: pending,
      requester: false,
      creator: false,
      expert: false,
      joiner: false,
      target: false,
      hasExam: false,
      hasResult: false,
      rated: true,
      payment: null,
      sourceActions: new Set(),
      targetActions: new Set(),
    };
    expect(consultationRefusal('schedule', base)).toBe('NotFound');
    expect(consultationRefusal('schedule', { ...base, joiner: true })).toBe('InsufficientPermissions');
    expect(consultationRefusal('schedule', { ...base, target: true, status: scheduled })).toBe(
      'ConsultationWrongStatus',
    );
    expect(consultationRefusal('schedule', { ...base, target: true })).toBe('ConsultationNoExam');
    expect(consultationRefusal('complete', { ...base, target: true, status: scheduled })).toBe('ConsultationNoResult');
    const requester = { ...base, requester: true, creator: true, status: completed };
    expect(consultationRefusal('rate', requester)).toBe('RatingAlreadySubmitted');
    expect(consultationRefusal('rate', { ...requester, rated: false })).toBeNull();
    // A creator without the source's consultation_update still edits its own request; another requester does not.
    expect(consultationRefusal('update', { ...base, requester: true, creator: true })).toBeNull();
    expect(consultationRefusal('update', { ...base, requester: true })).toBe('InsufficientPermissions');
    // The experts' writing needs consultation_submitSuggestion in the target, named as an expert (not a joiner).
    const writing = { ...base, status: scheduled, targetActions: new Set<Action>(['consultation_submitSuggestion']) };
    expect(consultationRefusal('writeResult', { ...writing, joiner: true })).toBe('InsufficientPermissions');
    expect(consultationRefusal('writeResult', { ...writing, expert: true })).toBeNull();
  });

  it('takes a paid consultation on only once paid, and cancels or deletes it only once refunded', () => {
    const target: F = {
      status: pending,
      requester: false,
      creator: false,
      expert: false,
      joiner: false,
      target: true,
      hasExam: true,
      hasResult: false,
      rated: false,
      payment: 0,
      sourceActions: new Set(),
      targetActions: new Set(),
    };
    expect(consultationRefusal('schedule', target)).toBe('ConsultationUnpaid');
    expect(consultationRefusal('schedule', { ...target, hasExam: false })).toBe('ConsultationNoExam');
    expect(PAYMENTS.filter((payment) => consultationRefusal('schedule', { ...target, payment }) === null)).toEqual([
      null,
      1,
      2,
      3,
      4,
    ]);
    expect(PAYMENTS.filter((payment) => consultationRefusal('cancel', { ...target, payment }) === null)).toEqual([
      null,
      0,
      3,
    ]);
    const deleting = {
      ...target,
      target: false,
      requester: true,
      sourceActions: new Set<Action>(['consultation_delete']),
    };
    expect(consultationRefusal('delete', { ...deleting, payment: 1 })).toBe('ConsultationPaid');
    expect(consultationRefusal('delete', { ...deleting, status: canceled, payment: 3 })).toBeNull();
  });
});
