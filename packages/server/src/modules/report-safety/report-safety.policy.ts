import {
  CRITICAL_FOLLOWER_ACTIONS,
  QUALITY_REVIEW_ACTIONS,
  REPORT_READER_ACTIONS,
  type ReportStatus,
} from '@yyp/contracts';
import type { BucketAction } from '../../platform/authz.js';
import { AppError, errors } from '../../platform/errors.js';
import { APPROVED_STATUSES } from '../reports/index.js';

/**
 * Who may do what around a report's clinical safety (issue 21 step 3): critical values (report,
 * list, follow up, who is told), quality grades and ratings, comments. The routes authorize seeing
 * the report's organization (or name one action); the services ask these rules first. Each takes
 * the caller's facts (the actions it holds in the report's organization, its id) and the report's
 * (status, writer) and answers null (allowed) or the refusal the service throws.
 */

/** The shared lists of who reads a report, follows its critical values up and reviews its grade. */
export const READERS: readonly BucketAction[] = REPORT_READER_ACTIONS;
/** Report a critical value: whoever may write or approve the report. */
export const CRITICAL_REPORTERS: readonly BucketAction[] = ['report_upsert', 'report_approval'];
export const CRITICAL_FOLLOWERS: readonly BucketAction[] = CRITICAL_FOLLOWER_ACTIONS;
/**
 * Notified of a new critical value besides the exam's assignee: approving doctors (who answer
 * for the report) and the registry desk (who phone the ordering department).
 */
export const CRITICAL_NOTIFIED: readonly BucketAction[] = ['report_approval', 'registry_create', 'registry_update'];
export const QUALITY_REVIEWERS: readonly BucketAction[] = QUALITY_REVIEW_ACTIONS;
/** Who sees a report's critical values: its readers and the followers. */
export const CRITICAL_READERS: readonly BucketAction[] = [...READERS, ...CRITICAL_FOLLOWERS];
/** Who sees a report's quality grade: its readers and the quality reviewers. */
export const QUALITY_READERS: readonly BucketAction[] = [...READERS, ...QUALITY_REVIEWERS];

/** Throws the refusal, if any. */
export function enforce(refusal: AppError | null): void {
  if (refusal) throw refusal;
}

export function holdsAny(actions: ReadonlySet<string>, wanted: readonly BucketAction[]): boolean {
  return wanted.some((a) => actions.has(a));
}

/** One of `wanted`, or 403 naming the first. */
export function anyRefusal(actions: ReadonlySet<string>, wanted: readonly BucketAction[]): AppError | null {
  return holdsAny(actions, wanted) ? null : errors.forbidden(wanted[0]);
}

/* ---------- critical values ---------- */

export const criticalReportRefusal = (actions: ReadonlySet<string>) => anyRefusal(actions, CRITICAL_REPORTERS);
export const criticalReadRefusal = (actions: ReadonlySet<string>) => anyRefusal(actions, CRITICAL_READERS);
export const criticalFollowRefusal = (actions: ReadonlySet<string>) => anyRefusal(actions, CRITICAL_FOLLOWERS);

/**
 * Told of a new critical value: the exam's assignee and CRITICAL_NOTIFIED holders, never its
 * reporter (the member's actions are looked up only when they decide).
 */
export function toldOfCriticalValue(
  memberId: string,
  reporterId: string,
  assigneeId: string | null,
  memberActions: () => ReadonlySet<string>,
): boolean {
  if (memberId === reporterId) return false;
  return memberId === assigneeId || holdsAny(memberActions(), CRITICAL_NOTIFIED);
}

/**
 * A list across organizations (critical values, quality) naming one where the caller lacks the
 * rights: 403 naming the first wanted action where it sees the organization, 404 otherwise.
 */
export function listOrganizationRefusal(visible: boolean, wanted: readonly BucketAction[]): AppError {
  return visible ? errors.forbidden(wanted[0]) : errors.notFound('Organization');
}

/* ---------- quality and ratings ---------- */

/** The report facts a review rule needs (undefined: nobody wrote it yet). */
export type ReviewedReport = { status: string; creatorId: string | null } | undefined;

/** Graded and rated: an approved or printed report. */
export function isGradable(report: ReviewedReport): boolean {
  return APPROVED_STATUSES.includes((report?.status ?? 'none') as ReportStatus);
}

/** Grade (what: 'grade') or rate ('rate') a report: approved, and not by its writer. */
export function reviewRefusal(report: ReviewedReport, callerId: string, what: 'rate' | 'grade'): AppError | null {
  if (!isGradable(report)) {
    return new AppError('ReportNotApproved', 'Only an approved or printed report is rated or graded', {
      status: report?.status ?? 'none',
    });
  }
  if (report?.creatorId === callerId) {
    return new AppError('InsufficientPermissions', `The writer of a report does not ${what} it`, {
      reason: 'ownReport',
    });
  }
  return null;
}

export const qualityReadRefusal = (actions: ReadonlySet<string>) => anyRefusal(actions, QUALITY_READERS);

/** What the caller may do with a report's grade, as GET reports/{id}/quality tells the editor. */
export function qualityRights(
  report: ReviewedReport,
  callerId: string,
  actions: ReadonlySet<string>,
  graded: boolean,
): { canUpsert: boolean; canDelete: boolean; gradable: boolean } {
  const gradable = isGradable(report);
  return {
    canUpsert: gradable && report?.creatorId !== callerId && actions.has('quality_upsert'),
    canDelete: graded && actions.has('quality_delete'),
    gradable,
  };
}

/** The caller may still rate: approved, not its own, not rated by it before (a rating is never changed). */
export function mayRate(report: ReviewedReport, callerId: string, ratedAlready: boolean): boolean {
  return isGradable(report) && report?.creatorId !== callerId && !ratedAlready;
}

/* ---------- comments and the rest of the reading ---------- */

/** Ratings, comments: the report's readers. */
export const reviewReadRefusal = (actions: ReadonlySet<string>) => anyRefusal(actions, READERS);

/** Comments exist only where the group allows them (spec 000 §6 "Group flags gate … comments"). */
export function commentsRefusal(allowReportComment: unknown): AppError | null {
  return allowReportComment === true
    ? null
    : new AppError('ReportCommentsDisabled', 'Report comments are turned off for this group');
}

/** A comment is taken back by its author only. */
export function commentDeleteRefusal(authorId: string | null, callerId: string): AppError | null {
  return authorId === callerId ? null : errors.forbidden('comment_author');
}
