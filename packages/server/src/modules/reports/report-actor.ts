import { auditContext, writeAudit } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import type { AuthedInput } from '../../platform/route.js';
import type { Actor } from './reports.policy.js';

type Caller = Pick<AuthedInput<undefined, undefined, undefined>, 'account' | 'access' | 'bucket' | 'request'>;

/** The report services' caller, from the route's authorized input (the report modules' routes share it). */
export const actorOf = (input: Caller): Actor => ({
  account: input.account,
  access: input.access,
  bucket: input.bucket,
  ctx: auditContext(input.request),
});

/** A PHI audit row about a report, by the actor in its organization (with the patient when known). */
export async function auditReport(
  db: Db,
  actor: Actor,
  action: string,
  reportId: string,
  details: Record<string, unknown> = {},
  patientId?: string,
): Promise<void> {
  await writeAudit(db, actor.ctx, {
    action,
    outcome: 'success',
    category: 'phi',
    actorId: actor.account.id,
    actorUsername: actor.account.username,
    bucketId: actor.bucket.id,
    targetType: 'report',
    targetId: reportId,
    ...(patientId ? { patientId } : {}),
    details,
  });
}
