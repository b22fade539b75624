import type { AccountRow } from '../../db/schema.js';
import { callerScope, findBucketFacts } from '../../platform/access.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { canSee, effectiveActions, type BucketAction, type BucketFacts } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';

/** The caller of a report library call: who, and from where (for the audit trail). */
export interface LibraryCaller {
  account: AccountRow;
  ctx: AuditContext;
}

/**
 * Report material (templates, phrases, description templates, sample graphs) is read by whoever
 * works on exams or reports in the organization: any one of these actions is enough.
 */
export const REPORT_MATERIAL_READ_ACTIONS: readonly BucketAction[] = [
  'exam_get',
  'report_upsert',
  'report_approval',
  'report_advice',
  'template_upsert',
];

/** What a caller may need in an organization: read its report material, or hold an action. */
export type LibraryNeed = 'read' | BucketAction;

export function mayReadReportMaterial(actions: ReadonlySet<BucketAction>): boolean {
  return REPORT_MATERIAL_READ_ACTIONS.some((a) => actions.has(a));
}

export function allows(actions: ReadonlySet<BucketAction>, need: LibraryNeed): boolean {
  return need === 'read' ? mayReadReportMaterial(actions) : actions.has(need);
}

/**
 * The policy of the report library, for rows whose organization the route could not name
 * (personal-or-group rows, a bucketId in the body): an organization the caller cannot see is 404,
 * a missing action 403, and each denial is audited as the route-level check does.
 */
export class LibraryAccess {
  constructor(private readonly db: Db) {}

  /** The caller's actions in an organization; null when it cannot see it. */
  async actionsIn(
    account: AccountRow,
    bucketId: string,
  ): Promise<{ bucket: BucketFacts; actions: Set<BucketAction> } | null> {
    const scope = await callerScope(this.db, account);
    const bucket = scope.facts.find((b) => b.id === bucketId) ?? (await findBucketFacts(this.db, bucketId));
    if (!bucket || !canSee(scope.access, bucket)) return null;
    return { bucket, actions: effectiveActions(scope.access, bucket) };
  }

  /** Passes when the caller has `need` in the organization; answers its actions there. */
  async require(caller: LibraryCaller, bucketId: string, need: LibraryNeed): Promise<Set<BucketAction>> {
    const found = await this.actionsIn(caller.account, bucketId);
    if (!found) return this.deny(caller, bucketId, need, 'notFound');
    if (!allows(found.actions, need)) return this.deny(caller, bucketId, need, 'forbidden');
    return found.actions;
  }

  /** Personal material is for accounts that work in some organization. */
  async requireMember(caller: LibraryCaller): Promise<void> {
    const scope = await callerScope(this.db, caller.account);
    if (scope.access.memberships.size === 0) await this.deny(caller, undefined, 'personal', 'forbidden');
  }

  private async deny(
    caller: LibraryCaller,
    bucketId: string | undefined,
    need: string,
    decision: 'notFound' | 'forbidden',
  ): Promise<never> {
    await writeAudit(this.db, caller.ctx, {
      action: 'permission.denied',
      outcome: 'denied',
      actorId: caller.account.id,
      actorUsername: caller.account.username,
      ...(bucketId ? { bucketId } : {}),
      details: { action: need === 'read' ? 'report_material_read' : need, decision },
    });
    throw decision === 'notFound' ? errors.notFound() : errors.forbidden(need === 'read' ? undefined : need);
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
