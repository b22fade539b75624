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
 * The buttons for the server's `transitions`: exactly those actions, nothing the server did not
 * allow, in a stable order. The primary one is approve when allowed, else submit.
 */
export function actionButtons(transitions: readonly ReportAction[]): ActionButton[] {
  const allowed = new Set(transitions);
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
