import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { PrivacyContext } from '@yyp/contracts';
import { effectiveActions, privacyOf, type BucketAction } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import type { Actor } from '../reports/index.js';

/** Who asks, with the actions held in the organization concerned and its privacy facts there. */
export type Caller = Pick<Actor, 'account'> & {
  ctx: AuditContext;
  bucketId: string;
  actions: Set<BucketAction>;
  privacy: PrivacyContext;
};

export function callerOf(actor: Actor): Caller {
  return {
    account: actor.account,
    ctx: actor.ctx,
    bucketId: actor.bucket.id,
    actions: effectiveActions(actor.access, actor.bucket),
    privacy: privacyOf(actor.access, actor.bucket),
  };
}

/** An audit row of printing: PHI access of a report, or a change of the organization's template. */
export function auditPrint(
  db: Db,
  c: Caller,
  action: string,
  targetId: string,
  details: Record<string, unknown> = {},
  phi = true,
): Promise<void> {
  return writeAudit(db, c.ctx, {
    action,
    outcome: 'success',
    category: phi ? 'phi' : 'operation',
    actorId: c.account.id,
    actorUsername: c.account.username,
    bucketId: c.bucketId,
    targetType: phi ? 'report' : 'bucket',
    targetId,
    details,
  });
}
