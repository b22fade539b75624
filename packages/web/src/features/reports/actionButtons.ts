import { CONTENT_ACTIONS, holdsFor, needsReason, REPORT_ACTION_ORDER, type ReportAction } from '@yyp/contracts';
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

const SHORTCUTS: Partial<Record<ReportAction, string>> = {
  save: SHORTCUT_LABELS.save,
  submit: SHORTCUT_LABELS.submit,
  approve: SHORTCUT_LABELS.approve,
};

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
  return REPORT_ACTION_ORDER.filter((a) => allowed.has(a)).map((action) => ({
    action,
    primary: action === primary,
    danger: needsReason(action),
    needsReason: needsReason(action),
    needsExperts: action === 'advise',
    sendsContent: CONTENT_ACTIONS.has(action),
    shortcut: SHORTCUTS[action] ?? null,
  }));
}
