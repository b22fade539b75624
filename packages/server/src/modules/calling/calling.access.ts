import { privateFieldsMasked, type Action } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { BucketAccess, callerScope } from '../../platform/access.js';
import { denialAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import { canSee, effectiveActions, type BucketAction, type BucketFacts } from '../../platform/authz.js';
import { errors } from '../../platform/errors.js';
import { groupsWithoutCalling } from './calling-types.store.js';

/** The caller of a calling call: who, and from where (for the audit trail). */
export interface CallingCaller {
  account: AccountRow;
  ctx: AuditContext;
}

/** What a caller may do in one organization's queue. */
export interface CallingGrant {
  bucket: BucketFacts;
  actions: Set<BucketAction>;
  /** patient names are masked for this caller (group privacy without view_privacy) */
  masked: boolean;
}

/**
 * The caller's calling actions in an organization named by a body, a query or a row: an
 * organization it cannot see is 404, a missing action 403, a group that turned calling off
 * (enableCalling false) 403 naming it; every refusal is audited as the route-level check does.
 */
export class CallingAccess extends BucketAccess {
  async require(caller: CallingCaller, bucketId: string, anyOf: readonly Action[]): Promise<CallingGrant> {
    const found = await this.actionsIn(caller.account, bucketId);
    if (!found) return this.deny(caller, bucketId, anyOf, 'notFound');
    if (!anyOf.some((a) => found.actions.has(a))) return this.deny(caller, bucketId, anyOf, 'forbidden');
    await this.requireCallingOn(caller, bucketId, found.bucket.groupId);
    return { ...found, masked: maskedFor(found.bucket, found.actions) };
  }

  /** Refuses (403 naming enableCalling, audited) a call into a group that turned calling off. */
  async requireCallingOn(caller: CallingCaller, bucketId: string, groupId: string): Promise<void> {
    if ((await groupsWithoutCalling(this.db, [groupId])).size > 0) {
      await this.deny(caller, bucketId, ['enableCalling'], 'forbidden');
    }
  }

  deny(
    caller: CallingCaller,
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

  /** The organizations where the caller holds any of `anyOf`, in groups that keep calling on. */
  async bucketsWith(account: AccountRow, anyOf: readonly Action[]): Promise<CallingGrant[]> {
    const scope = await callerScope(this.db, account);
    const held = scope.facts
      .filter((b) => canSee(scope.access, b))
      .map((bucket) => ({ bucket, actions: effectiveActions(scope.access, bucket) }))
      .filter(({ actions }) => anyOf.some((a) => actions.has(a)));
    const off = await groupsWithoutCalling(
      this.db,
      held.map((d) => d.bucket.groupId),
    );
    return held
      .filter((d) => !off.has(d.bucket.groupId))
      .map((d) => ({ ...d, masked: maskedFor(d.bucket, d.actions) }));
  }
}

function maskedFor(bucket: BucketFacts, actions: Set<BucketAction>): boolean {
  return privateFieldsMasked(
    { groupPrivacy: bucket.enablePrivacy ?? true, viewPrivacy: actions.has('view_privacy') },
    { isPrivacy: false },
  );
}
