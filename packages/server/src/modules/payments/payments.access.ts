import { ORDER_APPLY_ACTION, type OrderType } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { actionsInBucket } from '../../platform/access.js';
import { denialAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import type { BucketAction } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';

/** Who makes a payments call, and from where (for the audit trail). */
export interface PayCaller {
  account: AccountRow;
  ctx: AuditContext;
}

/** The action that orders (and so pays for) an order of this type in the requesting organization. */
export const ORDER_ACTION: Record<OrderType, BucketAction> = ORDER_APPLY_ACTION;

/**
 * The check of an organization named by a row or a body (an order's, a payment's, an invoice's):
 * one it cannot see answers 404, a missing action `refusal` (403 by default); both are audited as
 * the route-level check audits them.
 */
export async function requireIn(
  db: Db,
  caller: PayCaller,
  bucketId: string,
  anyOf: readonly BucketAction[],
  refusal: () => AppError = () => errors.forbidden(anyOf.join('|')),
): Promise<void> {
  const found = await actionsInBucket(db, caller.account, bucketId);
  if (found && anyOf.some((a) => found.actions.has(a))) return;
  const decision = found ? 'forbidden' : 'notFound';
  await writeAudit(db, caller.ctx, denialAudit(caller.account, bucketId, anyOf.join('|'), decision));
  throw found ? refusal() : errors.notFound('Order');
}

export const noPermissionToPay = () => new AppError('NoPermissionToPay', 'No permission to pay for this order');
