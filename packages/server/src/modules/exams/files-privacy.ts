import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { examMasked, maskedFilesRefused, type BucketFacts, type CallerAccess } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';

/** A signed-in caller, as a route authorized it in the exam's organization. */
export interface FilesCaller {
  account: { id: string; username: string };
  access: CallerAccess;
  bucket: BucketFacts;
}

/**
 * Stored study files (a study package, its download link, blob-store URLs per file) carry the
 * patient's private fields unmasked: a caller who sees the exam masked (authz examMasked) is
 * refused them with 403, recorded as a denied security event like the route's own refusals.
 */
export async function refuseMaskedFiles(
  db: Db,
  ctx: AuditContext,
  caller: FilesCaller,
  exam: { id: string; isPrivacy: boolean; patientId?: string | null },
  route: string,
): Promise<void> {
  if (!examMasked(caller.access, caller.bucket, exam)) return;
  await writeAudit(db, ctx, {
    action: 'permission.denied',
    outcome: 'denied',
    category: 'security',
    actorId: caller.account.id,
    actorUsername: caller.account.username,
    bucketId: caller.bucket.id,
    targetType: 'exam',
    targetId: exam.id,
    ...(exam.patientId ? { patientId: exam.patientId } : {}),
    details: { action: 'view_privacy', route, decision: 'forbidden' },
  });
  throw maskedFilesRefused();
}
