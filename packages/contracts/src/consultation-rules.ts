import { z } from 'zod';
import type { PaymentStatus } from './billing.js';
import type { Action } from './permissions.js';

/**
 * The consultation's status machine and who may do what (spec 000 §4 "Consultation status", §5, §6
 * "consultation"; issue 25), pure so it is tested over every status × side × action and both the
 * server (refusals) and the screens (which buttons) read it.
 *
 * pending → scheduled (the target accepts; an exam must be bound) → completed (the result is written);
 * pending or scheduled → canceled (with a reason; cannot be undone). Completed and canceled are final.
 */
export const CONSULTATION_STATUSES = ['pending', 'scheduled', 'completed', 'canceled'] as const;
export type ConsultationStatusName = (typeof CONSULTATION_STATUSES)[number];
/** Stored and sent as numbers; the poll asks for status equal 0 (spec 001 §7). */
export const CONSULTATION_STATUS_VALUES = { pending: 0, scheduled: 1, completed: 2, canceled: 3 } as const;
export type ConsultationStatus = (typeof CONSULTATION_STATUS_VALUES)[ConsultationStatusName];
export const consultationStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);

export function statusName(status: ConsultationStatus): ConsultationStatusName {
  return CONSULTATION_STATUSES[status];
}

/** The moves of the machine. */
export const CONSULTATION_EVENTS = ['schedule', 'complete', 'cancel'] as const;
export type ConsultationEvent = (typeof CONSULTATION_EVENTS)[number];

/** The status after `event`, or null when the machine has no such move. */
export function nextConsultationStatus(
  status: ConsultationStatus,
  event: ConsultationEvent,
): ConsultationStatus | null {
  const { pending, scheduled, completed, canceled } = CONSULTATION_STATUS_VALUES;
  switch (event) {
    case 'schedule':
      return status === pending ? scheduled : null;
    case 'complete':
      return status === scheduled ? completed : null;
    case 'cancel':
      return status === pending || status === scheduled ? canceled : null;
  }
}

/** Whether the consultation is finished for good (nothing but reading, printing, rating). */
export function consultationClosed(status: ConsultationStatus): boolean {
  return status === CONSULTATION_STATUS_VALUES.completed || status === CONSULTATION_STATUS_VALUES.canceled;
}

/** Only a finished (completed) consultation can be linked as a history consultation (spec 000 §4). */
export function linkableAsHistory(status: ConsultationStatus): boolean {
  return status === CONSULTATION_STATUS_VALUES.completed;
}

/** What someone may do with a consultation. */
export const CONSULTATION_OPS = [
  'view',
  'print',
  'update',
  'visit',
  'link',
  'unlink',
  'bindExam',
  'unbindExam',
  'addCase',
  'deleteCase',
  'setMembers',
  'schedule',
  'complete',
  'cancel',
  'delete',
  'suggest',
  'writeResult',
  'uploadResult',
  'rate',
  'video',
] as const;
export type ConsultationOp = (typeof CONSULTATION_OPS)[number];

/**
 * The caller's facts about one consultation, gathered by the server:
 * - requester: sees the source organization and holds a consultation action there (or created it);
 * - creator: created it;
 * - expert / joiner: named among its members;
 * - target: staff of the target organization holding consultation_update there (accepts, names experts);
 * - sourceActions / targetActions: the consultation actions held in each organization.
 */
export interface ConsultationFacts {
  status: ConsultationStatus;
  requester: boolean;
  creator: boolean;
  expert: boolean;
  joiner: boolean;
  target: boolean;
  sourceActions: ReadonlySet<Action>;
  targetActions: ReadonlySet<Action>;
  hasExam: boolean;
  hasResult: boolean;
  rated: boolean;
  /**
   * The fee's payment status where the target organization charges for it (a consultation order,
   * spec 001 §9 codes: 0 unpaid, 1 paid, 2 refunding, 3 refunded, 4 partially refunded); null: free.
   */
  payment: PaymentStatus | null;
}

export type ConsultationRefusal =
  | 'NotFound'
  | 'InsufficientPermissions'
  | 'ConsultationWrongStatus'
  | 'ConsultationNoExam'
  | 'ConsultationNoResult'
  | 'ConsultationUnpaid'
  | 'ConsultationPaid'
  | 'RatingAlreadySubmitted';

const { pending, scheduled, completed, canceled } = CONSULTATION_STATUS_VALUES;
const OPEN = [pending, scheduled] as const;

interface OpRule {
  /** the statuses it is allowed in */
  statuses: readonly ConsultationStatus[];
  /** whether these facts name someone who may (before status and preconditions) */
  who: (f: ConsultationFacts) => boolean;
  /** a precondition once who and status hold */
  needs?: (f: ConsultationFacts) => ConsultationRefusal | null;
}

const anySide = (f: ConsultationFacts) => f.requester || f.expert || f.joiner || f.target;
/** The requester who may edit: its creator, or a holder of consultation_update in the source. */
const editor = (f: ConsultationFacts) => f.requester && (f.creator || f.sourceActions.has('consultation_update'));
const sourceHolds = (action: Action) => (f: ConsultationFacts) => f.requester && f.sourceActions.has(action);
const writingExpert = (f: ConsultationFacts) => f.expert && f.targetActions.has('consultation_submitSuggestion');
/**
 * Money is held for it (paid, refunding, partly refunded): it is refunded (in full) before it can be
 * cancelled or deleted, as a paid report order is (orders' cancel-remote).
 */
const moneyHeld = (f: ConsultationFacts): ConsultationRefusal | null =>
  f.payment === 1 || f.payment === 2 || f.payment === 4 ? 'ConsultationPaid' : null;

const RULES: Record<ConsultationOp, OpRule> = {
  view: { statuses: [pending, scheduled, completed, canceled], who: anySide },
  print: { statuses: [pending, scheduled, completed, canceled], who: anySide },
  update: { statuses: OPEN, who: editor },
  visit: { statuses: OPEN, who: editor },
  link: { statuses: OPEN, who: editor },
  unlink: { statuses: OPEN, who: editor },
  bindExam: { statuses: OPEN, who: sourceHolds('consultation_Exam_create') },
  unbindExam: { statuses: OPEN, who: sourceHolds('consultation_Exam_delete') },
  addCase: { statuses: OPEN, who: sourceHolds('consultation_clinicCase_create') },
  deleteCase: { statuses: OPEN, who: sourceHolds('consultation_clinicCase_delete') },
  setMembers: { statuses: OPEN, who: (f) => f.target },
  schedule: {
    statuses: [pending],
    who: (f) => f.target,
    // The experts take it on once an exam is bound and, where it costs something, once it is paid.
    needs: (f) => (!f.hasExam ? 'ConsultationNoExam' : f.payment === 0 ? 'ConsultationUnpaid' : null),
  },
  complete: {
    statuses: [scheduled],
    who: (f) => f.target || writingExpert(f),
    needs: (f) => (f.hasResult ? null : 'ConsultationNoResult'),
  },
  cancel: { statuses: OPEN, who: (f) => editor(f) || f.target, needs: moneyHeld },
  delete: { statuses: [pending, canceled], who: sourceHolds('consultation_delete'), needs: moneyHeld },
  suggest: { statuses: [scheduled], who: writingExpert },
  writeResult: { statuses: [scheduled], who: writingExpert },
  uploadResult: { statuses: [scheduled], who: writingExpert },
  rate: {
    statuses: [completed],
    who: editor,
    needs: (f) => (f.rated ? 'RatingAlreadySubmitted' : null),
  },
  video: { statuses: [scheduled], who: anySide },
};

/**
 * Why the caller may not do `op` now, or null when it may. Someone on no side does not see the
 * consultation (NotFound); someone who sees it but is not the one (InsufficientPermissions); the right
 * one at the wrong time (ConsultationWrongStatus); then the op's precondition.
 */
export function consultationRefusal(op: ConsultationOp, facts: ConsultationFacts): ConsultationRefusal | null {
  if (!anySide(facts)) return 'NotFound';
  const rule = RULES[op];
  if (!rule.who(facts)) return 'InsufficientPermissions';
  if (!rule.statuses.includes(facts.status)) return 'ConsultationWrongStatus';
  return rule.needs?.(facts) ?? null;
}

/** Every op the caller may do now (the detail's `can`): the screens offer exactly these. */
export function allowedConsultationOps(facts: ConsultationFacts): ConsultationOp[] {
  return CONSULTATION_OPS.filter((op) => consultationRefusal(op, facts) === null);
}

/** The statuses an op is allowed in (for the refusal's message). */
export function consultationOpStatuses(op: ConsultationOp): readonly ConsultationStatus[] {
  return RULES[op].statuses;
}

/** The machine's event of an op that moves the status, if any. */
export const CONSULTATION_OP_EVENT: Partial<Record<ConsultationOp, ConsultationEvent>> = {
  schedule: 'schedule',
  complete: 'complete',
  cancel: 'cancel',
};
