import { GROUP_ACCESS_LEVELS, type Action } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { actionsInBucket, callerScope } from '../../platform/access.js';
import { denialAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import { canSee, effectiveActions } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { findGroup } from '../groups/index.js';

/**
 * Who may see and spend a group's credit (spec 000 §6: "Group flags gate credit"; refunds and orders
 * are order actions). Billing view: the group's admins, and members holding an order action
 * (applying for reads or refunding) in one of its organizations. Every refusal is audited.
 */
export const BILLING_ACTIONS: readonly Action[] = ['apply_expert_report', 'apply_remote_report', 'payment_refund'];

export interface CreditCaller {
  account: AccountRow;
  ctx: AuditContext;
}

export class CreditAccess {
  constructor(private readonly db: Db) {}

  /** Whether the group exists and keeps credit on (enableCredit is off unless set). */
  async creditEnabled(groupId: string): Promise<boolean | null> {
    const group = await findGroup(this.db, groupId);
    if (!group) return null;
    return group.settings.enableCredit === true;
  }

  /** The route already checked the caller is in the group; this checks billing view. */
  async requireBillingView(caller: CreditCaller, groupId: string): Promise<void> {
    const scope = await callerScope(this.db, caller.account);
    if (scope.access.groupLevels.get(groupId) === GROUP_ACCESS_LEVELS.admin) return;
    const holds = scope.facts.some(
      (b) =>
        b.groupId === groupId &&
        canSee(scope.access, b) &&
        BILLING_ACTIONS.some((a) => effectiveActions(scope.access, b).has(a)),
    );
    if (!holds) await this.deny(caller, undefined, BILLING_ACTIONS.join('|'), 'forbidden');
  }

  /** An organization named by a body or row: 404 unseen, 403 without one of `anyOf`; answers its group. */
  async requireInBucket(caller: CreditCaller, bucketId: string, anyOf: readonly Action[]): Promise<string> {
    const found = await actionsInBucket(this.db, caller.account, bucketId);
    if (!found) return this.deny(caller, bucketId, anyOf.join('|'), 'notFound');
    if (!anyOf.some((a) => found.actions.has(a))) return this.deny(caller, bucketId, anyOf.join('|'), 'forbidden');
    return found.bucket.groupId;
  }

  /** 403 naming the flag (audited) when the group turned credit off; 404 for no such group. */
  async requireCreditOn(caller: CreditCaller, groupId: string, bucketId?: string): Promise<void> {
    const on = await this.creditEnabled(groupId);
    if (on === null) throw errors.notFound('Group');
    if (!on) await this.deny(caller, bucketId, 'enableCredit', 'forbidden');
  }

  async deny(
    caller: CreditCaller,
    bucketId: string | undefined,
    needs: string,
    decision: 'notFound' | 'forbidden',
  ): Promise<never> {
    await writeAudit(this.db, caller.ctx, denialAudit(caller.account, bucketId, needs, decision));
    throw decision === 'notFound'
      ? errors.notFound('Organization')
      : new AppError('InsufficientPermissions', 'Insufficient permissions', { action: needs });
  }
}
