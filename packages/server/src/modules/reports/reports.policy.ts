import type { AccountRow } from '../../db/schema.js';
import type { AuditContext } from '../../platform/audit.js';
import type { BucketAction, BucketFacts, CallerAccess } from '../../platform/authz.js';
import { AppError, errors } from '../../platform/errors.js';
import {
  allowedActions,
  canEdit,
  canReset,
  type ActionProblem,
  type ActorFacts,
  type ReportFacts,
} from './report-machine.js';

/**
 * Who may do what with a report (issue 21 step 3): read it, write it (take its lock, run an
 * action), reset it, edit its images, force its lock open, choose advice experts. Each rule takes
 * the caller's facts (its id and the actions it holds in the report's organization) and the
 * report's facts (status, writer, live lock; report-machine.ts) and answers null (allowed) or the
 * refusal the service throws. The services ask these first; nothing here reads the database.
 */

/** A caller of the reports service: who, its access, the report's organization (route-authorized), whence. */
export type Actor = { account: AccountRow; access: CallerAccess; bucket: BucketFacts; ctx: AuditContext };

/** Any one of these lets a caller read the organization's reports. */
export const READ_ACTIONS: readonly BucketAction[] = [
  'exam_get',
  'report_upsert',
  'report_approval',
  'report_advice',
  'report_trace',
];

/** The actions of a report role: a caller holding none of them may not edit any report. */
export const REPORT_ROLE_ACTIONS: readonly BucketAction[] = [
  'report_upsert',
  'report_approval',
  'report_advice',
  'report_recall',
  'report_preliminary',
];

/** Clearing anyone's lock is the organization's (or group's) admins'. */
export const FORCE_UNLOCK_ACTION: BucketAction = 'bucket_manage';
/** A chosen advice expert holds this in the report's organization. */
export const ADVICE_ACTION: BucketAction = 'report_advice';
/** The trace of a report is shown to holders of this. */
export const TRACE_ACTION: BucketAction = 'report_trace';

/** Read: one of READ_ACTIONS. */
export function readRefusal(actions: ReadonlySet<string>): AppError | null {
  return READ_ACTIONS.some((a) => actions.has(a)) ? null : errors.forbidden('exam_get');
}

/** The other user holding the report's live lock, who refuses every write; null when free or ours. */
export function otherLockHolder(report: ReportFacts, caller: ActorFacts): string | null {
  return report.lockedBy && report.lockedBy !== caller.id ? report.lockedBy : null;
}

/** "Report locked by {name}" (spec 001 §8): a write while another user holds the lock. */
export function lockedRefusal(holder: { id: string; name: string }): AppError {
  return new AppError('ReportLocked', `Report locked by ${holder.name}`, { lockedBy: holder });
}

/**
 * Why the caller may not do what it asked now: no report role at all, or not in this state (with
 * the status and the transitions it has, so the editor can show them).
 */
export function notEditable(report: ReportFacts, caller: ActorFacts): AppError {
  if (!REPORT_ROLE_ACTIONS.some((a) => caller.actions.has(a))) {
    return new AppError('NoPermissionToEdit', 'No permission to edit this report');
  }
  return new AppError('ReportNotEditable', 'This report is not editable now', {
    status: report.status,
    transitions: allowedActions(report, caller),
  });
}

/** Take the lock (the first edit): the caller could edit the report were it free. */
export function lockRefusal(report: ReportFacts, caller: ActorFacts): AppError | null {
  return canEdit({ ...report, lockedBy: null }, caller) ? null : notEditable(report, caller);
}

/** Edit the key images and sample graphs: the caller may edit the report's text now. */
export function imageEditRefusal(report: ReportFacts, caller: ActorFacts): AppError | null {
  return canEdit(report, caller) ? null : notEditable(report, caller);
}

/** Reset a never-submitted draft: its writer, while it may edit it (report-machine canReset). */
export function resetRefusal(report: ReportFacts, caller: ActorFacts): AppError | null {
  return canReset(report, caller) ? null : notEditable(report, caller);
}

/** Force the lock open: FORCE_UNLOCK_ACTION (the route checks it too). */
export function forceUnlockRefusal(actions: ReadonlySet<string>): AppError | null {
  return actions.has(FORCE_UNLOCK_ACTION) ? null : errors.forbidden(FORCE_UNLOCK_ACTION);
}

/** The refusal of an action the machine turned down (report-machine applyAction). */
export function actionRefusal(problem: ActionProblem, report: ReportFacts, caller: ActorFacts): AppError {
  switch (problem.kind) {
    case 'notAllowed':
      return notEditable(report, caller);
    case 'reasonRequired':
      return errors.validation('A reason is required', { field: 'reason' });
    case 'textRequired':
      return errors.validation('Findings or conclusion must not be empty', { field: 'findings' });
    case 'expertsRequired':
      return errors.validation('Choose at least one expert', { field: 'expertIds' });
  }
}

/** May this member be chosen as an advice expert by the caller: not the caller, holding ADVICE_ACTION. */
export function mayAdvise(memberId: string, memberActions: ReadonlySet<string>, callerId: string): boolean {
  return memberId !== callerId && memberActions.has(ADVICE_ACTION);
}

/** Advise: every chosen expert is one the caller may choose (mayAdvise). */
export function expertsRefusal(chosen: readonly string[], allowed: ReadonlySet<string>): AppError | null {
  const bad = chosen.filter((id) => !allowed.has(id));
  return bad.length > 0
    ? errors.validation('Advice experts must hold advice rights in this organization', { expertIds: bad })
    : null;
}
