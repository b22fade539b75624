import type { AccountRow } from '../../db/schema.js';
import type { AuditContext } from '../../platform/audit.js';
import { effectiveActions, type BucketAction, type BucketFacts, type CallerAccess } from '../../platform/authz.js';

/**
 * The caller of the report-safety services and its actions in the report's organization; the rules
 * that decide on them are in report-safety.policy.ts.
 */

/** A member of the report's organization, as the route authorized it. */
export interface Actor {
  account: AccountRow;
  access: CallerAccess;
  bucket: BucketFacts;
  ctx: AuditContext;
}

export function actionsOf(actor: Pick<Actor, 'access' | 'bucket'>): Set<BucketAction> {
  return effectiveActions(actor.access, actor.bucket);
}
