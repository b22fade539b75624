import { CONTENT_ACTIONS, holdsFor, REPORT_STATUSES, type ReportStatus } from '@yyp/contracts';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../platform/errors.js';
import { allowedActions, type ActorFacts, type ReportFacts } from './report-machine.js';
import {
  actionRefusal,
  expertsRefusal,
  forceUnlockRefusal,
  imageEditRefusal,
  lockedRefusal,
  lockRefusal,
  mayAdvise,
  notEditable,
  otherLockHolder,
  readRefusal,
  resetRefusal,
} from './reports.policy.js';

/**
 * The report policy over its inputs: every set of the actions that matter × every status × who
 * wrote the report × who holds its lock × whether the caller is a chosen expert. The expected
 * answers are written from spec 000 §4 below, not from the machine.
 */

const ME = 'me';
const OTHER = 'other';
/** The actions a report rule looks at (exam_get reads; report_print only widens approve). */
const RELEVANT = [
  'exam_get',
  'report_upsert',
  'report_approval',
  'report_advice',
  'report_recall',
  'report_preliminary',
  'report_print',
] as const;

function* subsets<T>(items: readonly T[]): Generator<T[]> {
  for (let mask = 0; mask < 1 << items.length; mask++) yield items.filter((_, i) => mask & (1 << i));
}

interface Case {
  actions: Set<string>;
  status: ReportStatus;
  creatorId: string | null;
  lockedBy: string | null;
  expert: boolean;
}

function* cases(): Generator<Case> {
  for (const held of subsets(RELEVANT)) {
    for (const status of REPORT_STATUSES) {
      for (const creatorId of [null, ME, OTHER]) {
        for (const lockedBy of [null, ME, OTHER]) {
          for (const expert of [false, true]) {
            yield { actions: new Set(held), status, creatorId, lockedBy, expert };
          }
        }
      }
    }
  }
}

const factsOf = (c: Case): ReportFacts => ({
  status: c.status,
  creatorId: c.creatorId,
  lockedBy: c.lockedBy,
  adviceExpertIds: c.expert ? [ME] : [OTHER],
});
const callerOf = (c: Case): ActorFacts => ({ id: ME, actions: c.actions });
const body = (e: AppError | null) => e?.toBody() ?? null;
const shown = (c: Case) => ({ ...c, actions: [...c.actions] });

/** The cases where `got` differs from `want` (one expect per rule keeps the grid fast). */
function mismatches(all: Case[], got: (c: Case) => unknown, want: (c: Case) => unknown) {
  return all
    .filter((c) => !isDeepStrictEqual(got(c), want(c)))
    .map((c) => ({ case: shown(c), got: got(c), want: want(c) }));
}

/** Spec 000 §4: the caller could change the report's text now, were no one else holding its lock. */
function mayWrite(c: Case): boolean {
  const writer = c.creatorId === null || c.creatorId === ME;
  const has = (a: string) => c.actions.has(a);
  switch (c.status) {
    case 'none':
    case 'locked':
    case 'partial':
    case 'hold':
    case 'cancelled':
      return writer && (has('report_upsert') || has('report_preliminary') || has('report_approval'));
    case 'final':
      return has('report_approval');
    case 'preliminary':
      return (writer && has('report_upsert')) || has('report_approval');
    case 'advised':
      return c.expert && has('report_advice');
    case 'corrected':
    case 'printed':
      return false;
  }
}

/** The refusal every "not now" answers: no report role at all, or the state with the caller's transitions. */
function expectedNotEditable(c: Case) {
  const roles = ['report_upsert', 'report_approval', 'report_advice', 'report_recall', 'report_preliminary'];
  if (!roles.some((a) => c.actions.has(a))) {
    return { code: 'NoPermissionToEdit', message: 'No permission to edit this report' };
  }
  return {
    code: 'ReportNotEditable',
    message: 'This report is not editable now',
    details: { status: c.status, transitions: allowedActions(factsOf(c), callerOf(c)) },
  };
}

describe('reports policy over every action set × state × writer × lock × expert', () => {
  const all = [...cases()];

  it('covers the whole grid', () => {
    expect(all).toHaveLength(2 ** RELEVANT.length * REPORT_STATUSES.length * 3 * 3 * 2);
  });

  it('read: any of exam_get, report_upsert, report_approval, report_advice, report_trace', () => {
    for (const held of subsets([...RELEVANT, 'report_trace', 'bucket_manage'])) {
      const readers = ['exam_get', 'report_upsert', 'report_approval', 'report_advice', 'report_trace'];
      const want = readers.some((a) => held.includes(a as never))
        ? null
        : { code: 'InsufficientPermissions', message: 'Insufficient permissions', details: { action: 'exam_get' } };
      expect(body(readRefusal(new Set(held))), held.join(',')).toEqual(want);
    }
  });

  it('lock: taken when the caller could write the report were it free; refused with the state otherwise', () => {
    expect(
      mismatches(
        all,
        (c) => body(lockRefusal(factsOf(c), callerOf(c))),
        (c) => (mayWrite(c) ? null : expectedNotEditable(c)),
      ),
    ).toEqual([]);
  });

  it('image edit: the caller may write the report now (a lock held by another refuses)', () => {
    expect(
      mismatches(
        all,
        (c) => body(imageEditRefusal(factsOf(c), callerOf(c))),
        (c) => (mayWrite(c) && c.lockedBy !== OTHER ? null : expectedNotEditable(c)),
      ),
    ).toEqual([]);
  });

  it('reset: its writer, in none, locked or partial, while it may write it', () => {
    const ok = (c: Case) =>
      ['none', 'locked', 'partial'].includes(c.status) &&
      (c.creatorId === null || c.creatorId === ME) &&
      mayWrite(c) &&
      c.lockedBy !== OTHER;
    expect(
      mismatches(
        all,
        (c) => body(resetRefusal(factsOf(c), callerOf(c))),
        (c) => (ok(c) ? null : expectedNotEditable(c)),
      ),
    ).toEqual([]);
  });

  it('every write: another user holding a live lock is named; a free lock or ours refuses nothing', () => {
    expect(
      mismatches(
        all,
        (c) => otherLockHolder(factsOf(c), callerOf(c)),
        (c) => (c.lockedBy === OTHER ? OTHER : null),
      ),
    ).toEqual([]);
    expect(lockedRefusal({ id: OTHER, name: '王医生' }).toBody()).toEqual({
      code: 'ReportLocked',
      message: 'Report locked by 王医生',
      details: { lockedBy: { id: OTHER, name: '王医生' } },
    });
  });

  it('the transitions the machine gives need the organization actions contracts name for them', () => {
    expect(
      mismatches(
        all,
        (c) => allowedActions(factsOf(c), callerOf(c)).filter((a) => !holdsFor(a, c.actions)),
        () => [],
      ),
    ).toEqual([]);
  });

  it('an editable report has a content action, and the machine agrees with the written-out rule', () => {
    expect(
      mismatches(
        all,
        (c) => allowedActions({ ...factsOf(c), lockedBy: null }, callerOf(c)).some((a) => CONTENT_ACTIONS.has(a)),
        mayWrite,
      ),
    ).toEqual([]);
  });

  it('an action the machine refuses: not now, a reason, some text, an expert', () => {
    const c: Case = {
      actions: new Set(['report_upsert']),
      status: 'final',
      creatorId: OTHER,
      lockedBy: null,
      expert: false,
    };
    expect(body(actionRefusal({ kind: 'notAllowed' }, factsOf(c), callerOf(c)))).toEqual(expectedNotEditable(c));
    expect(body(actionRefusal({ kind: 'reasonRequired' }, factsOf(c), callerOf(c)))).toEqual({
      code: 'ValidationError',
      message: 'A reason is required',
      details: { field: 'reason' },
    });
    expect(body(actionRefusal({ kind: 'textRequired' }, factsOf(c), callerOf(c)))).toEqual({
      code: 'ValidationError',
      message: 'Findings or conclusion must not be empty',
      details: { field: 'findings' },
    });
    expect(body(actionRefusal({ kind: 'expertsRequired' }, factsOf(c), callerOf(c)))).toEqual({
      code: 'ValidationError',
      message: 'Choose at least one expert',
      details: { field: 'expertIds' },
    });
    expect(body(notEditable(factsOf(c), { id: ME, actions: new Set(['exam_get']) }))).toEqual({
      code: 'NoPermissionToEdit',
      message: 'No permission to edit this report',
    });
  });
});

describe('force-unlock and advice', () => {
  it('force-unlock: bucket_manage alone', () => {
    for (const held of subsets([...RELEVANT, 'bucket_manage'])) {
      const want = held.includes('bucket_manage' as never)
        ? null
        : {
            code: 'InsufficientPermissions',
            message: 'Insufficient permissions',
            details: { action: 'bucket_manage' },
          };
      expect(body(forceUnlockRefusal(new Set(held)))).toEqual(want);
    }
  });

  it('advice experts: another member holding report_advice', () => {
    for (const held of subsets(RELEVANT)) {
      const actions = new Set<string>(held);
      expect(mayAdvise(OTHER, actions, ME)).toBe(actions.has('report_advice'));
      expect(mayAdvise(ME, actions, ME)).toBe(false);
    }
  });

  it('advise: every chosen expert is one the caller may choose', () => {
    const allowed = new Set(['a', 'b']);
    expect(expertsRefusal([], allowed)).toBeNull();
    expect(expertsRefusal(['a', 'b'], allowed)).toBeNull();
    expect(body(expertsRefusal(['a', 'x', 'y'], allowed))).toEqual({
      code: 'ValidationError',
      message: 'Advice experts must hold advice rights in this organization',
      details: { expertIds: ['x', 'y'] },
    });
  });
});
