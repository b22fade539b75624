import { CRITICAL_FOLLOWER_ACTIONS, QUALITY_REVIEW_ACTIONS, REPORT_READER_ACTIONS } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import type { AuditContext } from '../../platform/audit.js';
import { effectiveActions, type BucketAction, type BucketFacts, type CallerAccess } from '../../platform/authz.js';
import { errors } from '../../platform/errors.js';

/**
 * Who may do what around a report's clinical safety (the policy of this module, CONVENTIONS 3).
 * The routes authorize seeing the report's organization (or name one action); the service then
 * asks for one of these sets, so the rules live in one place.
 */

/** A member of the report's organization, as the route authorized it. */
export interface Actor {
  account: AccountRow;
  access: CallerAccess;
  bucket: BucketFacts;
  ctx: AuditContext;
}

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

export function actionsOf(actor: Pick<Actor, 'access' | 'bucket'>): Set<BucketAction> {
  return effectiveActions(actor.access, actor.bucket);
}

export function holdsAny(actions: ReadonlySet<BucketAction>, wanted: readonly BucketAction[]): boolean {
  return wanted.some((a) => actions.has(a));
}

/** The caller's actions, when it holds one of `wanted` (403 naming the first otherwise). */
export function requireAny(actor: Pick<Actor, 'access' | 'bucket'>, wanted: readonly BucketAction[]) {
  const actions = actionsOf(actor);
  if (!holdsAny(actions, wanted)) throw errors.forbidden(wanted[0]);
  return actions;
}
