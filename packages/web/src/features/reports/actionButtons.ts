import type { ReportAction } from '@yyp/contracts';
import { SHORTCUT_LABELS } from './shortcuts';

/** One button of the action bar. */
export interface ActionButton {
  action: ReportAction;
  /** the main button of the bar (at most one) */
  primary: boolean;
  danger: boolean;
  /** a reason is asked first (reject, recall; spec 000 §4) */
  needsReason: boolean;
  /** experts are chosen first (advise) */
  needsExperts: boolean;
  /** the action sends the editor's content */
  sendsContent: boolean;
  shortcut: string | null;
}

/** The order of the bar: writing first, then approval, then the ways back. */
const ORDER: readonly ReportAction[] = [
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

export const CONTENT_ACTIONS: ReadonlySet<ReportAction> = new Set([
  'save',
  'submit',
  'approve',
  'approveAndPrint',
  'preliminaryIssue',
  'advise',
]);

const SHORTCUTS: Partial<Record<ReportAction, string>> = {
  save: SHORTCUT_LABELS.save,
  submit: SHORTCUT_LABELS.submit,
  approve: SHORTCUT_LABELS.approve,
};

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

/**
 * The buttons for the server's `transitions`: exactly those actions, nothing the server did not
 * allow, in a stable order. The primary one is approve when allowed, else submit. With `held` (the
 * caller's actions in the report's organization, once known) a transition whose action the caller
 * no longer holds is left out too: transitions fetched before a role change would otherwise offer
 * a button that ends in a 403.
 */
export function actionButtons(transitions: readonly ReportAction[], held?: ReadonlySet<string>): ActionButton[] {
  const allowed = new Set(transitions.filter((a) => held === undefined || holdsFor(a, held)));
  const primary: ReportAction | undefined = allowed.has('approve')
    ? 'approve'
    : allowed.has('submit')
      ? 'submit'
      : undefined;
  return ORDER.filter((a) => allowed.has(a)).map((action) => ({
    action,
    primary: action === primary,
    danger: action === 'reject' || action === 'recall',
    needsReason: action === 'reject' || action === 'recall',
    needsExperts: action === 'advise',
    sendsContent: CONTENT_ACTIONS.has(action),
    shortcut: SHORTCUTS[action] ?? null,
  }));
}
