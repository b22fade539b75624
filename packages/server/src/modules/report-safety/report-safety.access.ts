import type { AccountRow } from '../../db/schema.js';
import { callerScope, findBucketFacts } from '../../platform/access.js';
import type { AuditContext } from '../../platform/audit.js';
import {
  canSee,
  effectiveActions,
  type BucketAction,
  type BucketFacts,
  type CallerAccess,
} from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { reportOfExam } from '../reports/index.js';
import { listPeriod } from './critical-values.rules.js';
import { holdsAny, listOrganizationRefusal } from './report-safety.policy.js';

/**
 * The caller of the report-safety services, its actions in the report's organization, the report it
 * names, the audit row of what it did and the scope of its lists; the rules that decide on them are
 * in report-safety.policy.ts.
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

/** The report of `examId` in the actor's organization; 404 when it has none. */
export async function reportIdOf(db: Db, actor: Actor, examId: string): Promise<string> {
  const id = await reportOfExam(db, examId, actor.bucket.id);
  if (!id) throw errors.notFound('Report');
  return id;
}

/** A PHI audit row about a report (the reports module writes it the same way for its own calls). */
export { auditReport } from '../reports/index.js';

/**
 * The organizations a safety list covers: each where the caller holds one of `holders` (with its
 * actions), or the one it names, refused (403, or 404 when unseen) unless it holds one there; and
 * the period, refused when it ends before it starts.
 */
export async function listScope(
  db: Db,
  account: AccountRow,
  holders: readonly BucketAction[],
  bucketId: string | undefined,
  body: { from?: string | undefined; to?: string | undefined; skip: number; limit: number },
) {
  const { access, facts } = await callerScope(db, account);
  const held = new Map<string, Set<BucketAction>>();
  for (const b of facts) {
    const actions = effectiveActions(access, b);
    if (holdsAny(actions, holders)) held.set(b.id, actions);
  }
  if (bucketId !== undefined && !held.has(bucketId)) {
    const bucket = await findBucketFacts(db, bucketId);
    throw listOrganizationRefusal(!!bucket && canSee(access, bucket), holders);
  }
  const period = listPeriod(body.from, body.to);
  if (!period) throw errors.validation('The period must end after it starts', { field: 'to' });
  const bucketIds = bucketId !== undefined ? [bucketId] : [...held.keys()];
  // the store's page: these organizations, the period, the window asked for
  const page = { bucketIds, from: period.from, to: period.to, skip: body.skip, limit: body.limit };
  return { access, facts, held, bucketIds, period, page };
}
