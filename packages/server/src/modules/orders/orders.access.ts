import type { AccountRow } from '../../db/schema.js';
import { actionsInBucket, callerScope, type BucketGrant } from '../../platform/access.js';
import { denialAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import type { BucketAction } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';

/** Who calls an orders service, and from where (for the audit trail). */
export interface OrdersCaller {
  account: AccountRow;
  ctx: AuditContext;
}

/**
 * The caller's grant in an organization named by a body, a query or a row: 404 when it cannot see
 * it, 403 without any of `anyOf`; every refusal is audited (permission.denied) as the route-level
 * check does.
 */
export async function requireIn(
  db: Db,
  caller: OrdersCaller,
  bucketId: string,
  anyOf: readonly BucketAction[],
): Promise<BucketGrant> {
  const found = await actionsInBucket(db, caller.account, bucketId);
  if (!found) return deny(db, caller, bucketId, anyOf, 'notFound');
  if (!anyOf.some((a) => found.actions.has(a))) return deny(db, caller, bucketId, anyOf, 'forbidden');
  return found;
}

/** The caller's grant in an organization, null when it cannot see it (no refusal written). */
export function grantIn(db: Db, caller: OrdersCaller, bucketId: string): Promise<BucketGrant | null> {
  return actionsInBucket(db, caller.account, bucketId);
}

/** The groups the caller belongs to. */
export async function groupsOf(db: Db, caller: OrdersCaller): Promise<string[]> {
  return [...(await callerScope(db, caller.account)).access.groupLevels.keys()];
}

export async function deny(
  db: Db,
  caller: OrdersCaller,
  bucketId: string,
  needs: readonly string[],
  decision: 'notFound' | 'forbidden',
  what = 'Organization',
): Promise<never> {
  await writeAudit(db, caller.ctx, denialAudit(caller.account, bucketId, needs.join('|'), decision));
  throw decision === 'notFound' ? errors.notFound(what) : errors.forbidden(needs.join('|'));
}
