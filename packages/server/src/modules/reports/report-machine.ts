import {
  CONTENT_ACTIONS,
  isResettableStatus,
  needsReason,
  RELEASING_ACTIONS,
  REPORT_ACTION_ORDER,
  type ReportAction,
  type ReportContent,
  type ReportStatus,
} from '@yyp/contracts';

/**
 * The report lifecycle of spec 000 §4 as one pure module (DESIGN.md "State machines are pure
 * modules"): `allowedActions` computes the `transitions` the server sends with every report, and
 * `applyAction` the state after an action. Nothing here reads the database or the clock.
 */

/** What the machine needs of a report. `lockedBy` is a live lock only (an expired one is null). */
export interface ReportFacts {
  status: ReportStatus;
  creatorId: string | null;
  lockedBy: string | null;
  adviceExpertIds: readonly string[];
}

/** What the machine needs of the caller: who, and the actions its roles grant in the report's organization. */
export interface ActorFacts {
  id: string;
  actions: ReadonlySet<string>;
  /** a view-only opening (a past report, a shared view): nothing may be done */
  viewOnly?: boolean;
}

/** Statuses in which the writer is still drafting. */
export const DRAFT_STATUSES: readonly ReportStatus[] = ['none', 'locked', 'partial', 'hold', 'cancelled'];
/** Statuses of an approved report. */
export const APPROVED_STATUSES: readonly ReportStatus[] = ['corrected', 'printed'];

const has = (actor: ActorFacts, action: string) => actor.actions.has(action);

/**
 * The actions the caller may take now. Rules (spec 000 §4):
 * - a report locked by another user allows nothing;
 * - the creator alone edits content (save, submit, advise, preliminary issue, own approval);
 *   a report nobody has written yet is anyone's with report_upsert, who becomes its creator;
 * - approvers (report_approval) approve or reject a submitted or preliminary report, and may
 *   correct its text while approving; nobody rejects their own report (cancelSubmit is theirs);
 * - after advice only the chosen experts holding report_advice edit; the writer may withdraw;
 * - recall (report_recall) applies to approved or printed reports.
 */
export function allowedActions(report: ReportFacts, actor: ActorFacts): ReportAction[] {
  if (actor.viewOnly) return [];
  if (report.lockedBy !== null && report.lockedBy !== actor.id) return [];
  const writer = report.creatorId === null || report.creatorId === actor.id;
  const upsert = has(actor, 'report_upsert');
  const approval = has(actor, 'report_approval');
  const print = has(actor, 'report_print');
  const out = new Set<ReportAction>();
  const approve = () => {
    out.add('approve');
    if (print) out.add('approveAndPrint');
  };

  switch (report.status) {
    case 'none':
    case 'locked':
    case 'partial':
    case 'hold':
    case 'cancelled':
      if (writer && upsert) {
        out.add('save');
        out.add('submit');
        out.add('advise');
      }
      if (writer && has(actor, 'report_preliminary')) out.add('preliminaryIssue');
      if (writer && approval) approve();
      break;
    case 'final':
      if (approval) {
        approve();
        if (!writer) out.add('reject');
      }
      if (report.creatorId === actor.id && upsert) out.add('cancelSubmit');
      break;
    case 'preliminary':
      if (writer && upsert) {
        out.add('save');
        out.add('submit');
      }
      if (approval) {
        approve();
        if (!writer) out.add('reject');
      }
      break;
    case 'advised': {
      const expert = report.adviceExpertIds.includes(actor.id) && has(actor, 'report_advice');
      if (expert) {
        out.add('save');
        out.add('submit');
        if (approval) approve();
      }
      if (report.creatorId === actor.id) out.add('cancelSubmit');
      break;
    }
    case 'corrected':
    case 'printed':
      if (has(actor, 'report_recall')) out.add('recall');
      break;
  }
  return REPORT_ACTION_ORDER.filter((a) => out.has(a));
}

/** The report may be edited by this caller (spec 000 §4: iff save, submit or approve is allowed). */
export function canEdit(report: ReportFacts, actor: ActorFacts): boolean {
  return allowedActions(report, actor).some((a) => CONTENT_ACTIONS.has(a));
}

export interface ActionInput {
  content: ReportContent;
  reason?: string | undefined;
  expertIds?: readonly string[] | undefined;
}

/** The state an action leaves; unset fields keep their value. */
export interface ActionOutcome {
  status: ReportStatus;
  creatorId: string | null;
  approverId?: string | null;
  issuerId?: string | null;
  rejectReason?: string;
  recallReason?: string;
  adviceExpertIds?: string[];
  /** which timestamps to stamp with "now" */
  stamp: ('savedAt' | 'submittedAt' | 'approvedAt' | 'printApprovedAt')[];
  /** the caller's lock is released by this action */
  releaseLock: boolean;
}

export type ActionProblem =
  { kind: 'notAllowed' } | { kind: 'reasonRequired' } | { kind: 'textRequired' } | { kind: 'expertsRequired' };

export function hasText(content: ReportContent): boolean {
  return content.findings.trim().length > 0 || content.conclusion.trim().length > 0;
}

/**
 * Checks an action against the rules and answers the resulting state, or the problem that
 * refuses it. `input.content` is the content as it will stand after the action.
 */
export function applyAction(
  report: ReportFacts,
  actor: ActorFacts,
  action: ReportAction,
  input: ActionInput,
): ActionOutcome | ActionProblem {
  if (!allowedActions(report, actor).includes(action)) return { kind: 'notAllowed' };
  if (needsReason(action) && !input.reason?.trim()) return { kind: 'reasonRequired' };
  if (RELEASING_ACTIONS.has(action) && !hasText(input.content)) return { kind: 'textRequired' };
  if (action === 'advise' && (input.expertIds ?? []).length === 0) return { kind: 'expertsRequired' };

  const creatorId = report.creatorId ?? (CONTENT_ACTIONS.has(action) ? actor.id : null);
  switch (action) {
    case 'save': {
      // A draft stays what it was (rejected, recalled, advised, preliminary); a first save is partial.
      const status: ReportStatus = report.status === 'none' || report.status === 'locked' ? 'partial' : report.status;
      return { status, creatorId, stamp: ['savedAt'], releaseLock: false };
    }
    case 'submit':
      return {
        status: 'final',
        creatorId,
        rejectReason: '',
        recallReason: '',
        stamp: ['submittedAt'],
        releaseLock: true,
      };
    case 'approve':
    case 'approveAndPrint':
      return {
        status: action === 'approve' ? 'corrected' : 'printed',
        creatorId,
        approverId: actor.id,
        issuerId: actor.id,
        rejectReason: '',
        recallReason: '',
        stamp: action === 'approve' ? ['approvedAt'] : ['approvedAt', 'printApprovedAt'],
        releaseLock: true,
      };
    case 'reject':
      return { status: 'hold', creatorId, rejectReason: input.reason!.trim(), stamp: [], releaseLock: true };
    case 'recall':
      return { status: 'cancelled', creatorId, recallReason: input.reason!.trim(), stamp: [], releaseLock: true };
    case 'advise':
      return {
        status: 'advised',
        creatorId,
        adviceExpertIds: [...new Set(input.expertIds)],
        stamp: ['savedAt'],
        releaseLock: true,
      };
    case 'cancelSubmit':
      return { status: 'partial', creatorId, adviceExpertIds: [], stamp: [], releaseLock: true };
    case 'preliminaryIssue':
      return { status: 'preliminary', creatorId, issuerId: actor.id, stamp: ['savedAt'], releaseLock: true };
  }
}

export function isProblem(value: ActionOutcome | ActionProblem): value is ActionProblem {
  return 'kind' in value;
}

/**
 * Reset clears a draft that was never submitted (spec 000 §4 "unlock and reset clear the edited
 * content"): only its writer, only in none, locked or partial.
 */
export function canReset(report: ReportFacts, actor: ActorFacts): boolean {
  if (!isResettableStatus(report.status)) return false;
  return canEdit(report, actor) && (report.creatorId === null || report.creatorId === actor.id);
}

/** The status shown for a report whose lock lapsed without a save: a bare 'locked' was never written. */
export function visibleStatus(status: ReportStatus, liveLock: boolean): ReportStatus {
  return status === 'locked' && !liveLock ? 'none' : status;
}
