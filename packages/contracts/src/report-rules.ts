import type { ReportStatus } from './exams.js';
import type { ReportAction } from './reports.js';

/**
 * The report rules that the server's machine (modules/reports/report-machine.ts) and the web's
 * editor (features/reports) both apply, written once (issue 21 step 3). The server decides a
 * report's `transitions`; the web only orders, labels and prepares them with these.
 */

/** The order of the report's actions: writing first, then approval, then the ways back. */
export const REPORT_ACTION_ORDER: readonly ReportAction[] = [
  'save',
  'submit',
  'preliminaryIssue',
  'advise',
  'approve',
  'approveAndPrint',
  'reject',
  'cancelSubmit',
  'recall',
];

/** Actions that carry (and may change) the report's content: the editor sends its text with them. */
export const CONTENT_ACTIONS: ReadonlySet<ReportAction> = new Set([
  'save',
  'submit',
  'approve',
  'approveAndPrint',
  'preliminaryIssue',
  'advise',
]);

/**
 * Actions that hand the report on to someone else: they need some text (spec 000 §5 "finding or
 * conclusion must not be empty") and the organization's required report extension fields.
 */
export const RELEASING_ACTIONS: ReadonlySet<ReportAction> = new Set([
  'submit',
  'approve',
  'approveAndPrint',
  'preliminaryIssue',
]);

/** Actions that need a reason (spec 000 §4: reject, recall). */
export const REASON_ACTIONS: ReadonlySet<ReportAction> = new Set(['reject', 'recall']);

/** Whether an action needs a reason. */
export function needsReason(action: ReportAction): boolean {
  return REASON_ACTIONS.has(action);
}

/**
 * The organization actions each transition needs, from the report machine's rules (spec 000 §4):
 * one of the listed sets, held in full. Saving and submitting are the writer's (report_upsert) or,
 * after advice, the chosen expert's (report_advice); withdrawing one's own submission needs no
 * action after advice. A transition not named here needs nothing beyond the server's word.
 */
export const REQUIRED_ACTIONS: Partial<Record<ReportAction, readonly (readonly string[])[]>> = {
  save: [['report_upsert'], ['report_advice']],
  submit: [['report_upsert'], ['report_advice']],
  advise: [['report_upsert']],
  preliminaryIssue: [['report_preliminary']],
  approve: [['report_approval']],
  approveAndPrint: [['report_approval', 'report_print']],
  reject: [['report_approval']],
  recall: [['report_recall']],
};

/** Whether the caller's actions allow a transition (true when the transition needs none). */
export function holdsFor(action: ReportAction, held: ReadonlySet<string>): boolean {
  const options = REQUIRED_ACTIONS[action];
  return options === undefined || options.some((set) => set.every((x) => held.has(x)));
}

/** Statuses of a draft that may be reset (spec 000 §4 "unlock and reset clear the edited content"). */
export const RESETTABLE_STATUSES: readonly ReportStatus[] = ['none', 'locked', 'partial'];

/** Whether a report in this status may be reset (by its writer, while it may edit it). */
export function isResettableStatus(status: ReportStatus): boolean {
  return RESETTABLE_STATUSES.includes(status);
}
