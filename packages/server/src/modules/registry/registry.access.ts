import type { Action } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { BucketAccess, callerScope } from '../../platform/access.js';
import { denialAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import { canSee, effectiveActions, type BucketAction, type BucketFacts } from '../../platform/authz.js';
import { errors } from '../../platform/errors.js';
import { groupsWithoutRegistry } from './registry-groups.store.js';

/** The caller of a registry call: who, and from where (for the audit trail). */
export interface DeskCaller {
  account: AccountRow;
  ctx: AuditContext;
}

/** The desk actions: holding any of them opens the organization's registry. */
export const DESK_ACTIONS: readonly Action[] = [
  'registry_create',
  'registry_arrive',
  'registry_update',
  'registry_delete',
];

/**
 * The caller's actions in an organization named by a request body or by a row (POST registry's
 * bucketId, a registration's organization): an organization the caller cannot see is 404, a
 * missing action 403, and each denial is audited as the route-level check does.
 */
export class DeskAccess extends BucketAccess {
  /**
   * Passes when the caller holds one of `anyOf` there and the group keeps the registry on (403
   * naming enableRegistry otherwise); answers the organization and every action held.
   */
  async require(
    caller: DeskCaller,
    bucketId: string,
    anyOf: readonly Action[],
  ): Promise<{ bucket: BucketFacts; actions: Set<BucketAction> }> {
    const found = await this.actionsIn(caller.account, bucketId);
    if (!found) return this.deny(caller, bucketId, anyOf, 'notFound');
    if (!anyOf.some((a) => found.actions.has(a))) return this.deny(caller, bucketId, anyOf, 'forbidden');
    await this.requireRegistryOn(caller, bucketId, found.bucket.groupId);
    return found;
  }

  /** Refuses (403 naming enableRegistry, audited) a desk call into a group that turned its registry off. */
  async requireRegistryOn(caller: DeskCaller, bucketId: string, groupId: string): Promise<void> {
    if ((await groupsWithoutRegistry(this.db, [groupId])).size > 0) {
      await this.deny(caller, bucketId, ['enableRegistry'], 'forbidden');
    }
  }

  /** Refuses (and audits) an action the machine says the caller lacks. */
  deny(
    caller: DeskCaller,
    bucketId: string,
    needs: readonly string[],
    decision: 'notFound' | 'forbidden',
  ): Promise<never> {
    return writeAudit(this.db, caller.ctx, denialAudit(caller.account, bucketId, needs.join('|'), decision)).then(
      () => {
        throw decision === 'notFound' ? errors.notFound('Organization') : errors.forbidden(needs.join('|'));
      },
    );
  }

  /** The organizations where the caller holds any desk action, in groups that keep the registry on. */
  async deskBuckets(account: AccountRow): Promise<{ bucket: BucketFacts; actions: Set<BucketAction> }[]> {
    const scope = await callerScope(this.db, account);
    const desks = scope.facts
      .filter((b) => canSee(scope.access, b))
      .map((bucket) => ({ bucket, actions: effectiveActions(scope.access, bucket) }))
      .filter(({ actions }) => DESK_ACTIONS.some((a) => actions.has(a)));
    const off = await groupsWithoutRegistry(
      this.db,
      desks.map((d) => d.bucket.groupId),
    );
    return desks.filter((d) => !off.has(d.bucket.groupId));
  }
}
