import type { AccountRow } from '../../db/schema.js';
import { BucketAccess, callerScope } from '../../platform/access.js';
import { denialAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import type { BucketAction } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import {
  deniedAction,
  denialError,
  organizationDenial,
  personalDenial,
  type Denial,
  type LibraryNeed,
} from './report-library.policy.js';

export type { LibraryNeed };

/** The caller of a report library call: who, and from where (for the audit trail). */
export interface LibraryCaller {
  account: AccountRow;
  ctx: AuditContext;
}

/**
 * The caller's actions in an organization, for rows whose organization the route could not name
 * (personal-or-group rows, a bucketId in the body), checked against report-library.policy.ts: an
 * organization the caller cannot see is 404, a missing action 403, and each denial is audited as
 * the route-level check does.
 */
export class LibraryAccess extends BucketAccess {
  /** Passes when the caller has `need` in the organization; answers its actions there. */
  async require(caller: LibraryCaller, bucketId: string, need: LibraryNeed): Promise<Set<BucketAction>> {
    const found = await this.actionsIn(caller.account, bucketId);
    const denial = organizationDenial(found?.actions ?? null, need);
    if (denial || !found) return this.deny(caller, bucketId, need, denial ?? 'notFound');
    return found.actions;
  }

  /** Personal material is for accounts that work in some organization. */
  async requireMember(caller: LibraryCaller): Promise<void> {
    const scope = await callerScope(this.db, caller.account);
    const denial = personalDenial(scope.access.memberships.size);
    if (denial) await this.deny(caller, undefined, 'personal', denial);
  }

  private async deny(
    caller: LibraryCaller,
    bucketId: string | undefined,
    need: string,
    decision: Denial,
  ): Promise<never> {
    await writeAudit(this.db, caller.ctx, denialAudit(caller.account, bucketId, deniedAction(need), decision));
    throw denialError(decision, need);
  }
}

/** An operation audit row for a change to the report library, written with the change (pass the transaction). */
export function auditChange(
  db: Db,
  caller: LibraryCaller,
  entry: {
    action: string;
    targetType: string;
    targetId: string;
    bucketId: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  return writeAudit(db, caller.ctx, {
    action: entry.action,
    outcome: 'success',
    category: 'operation',
    actorId: caller.account.id,
    actorUsername: caller.account.username,
    targetType: entry.targetType,
    targetId: entry.targetId,
    ...(entry.bucketId ? { bucketId: entry.bucketId } : {}),
    ...(entry.details ? { details: entry.details } : {}),
  });
}
