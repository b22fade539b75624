import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { bucketAccounts } from './consultations.store.js';

/** Every account named expert or joiner must belong to the target organization (400 naming the field otherwise). */
export async function requireTargetAccounts(
  db: Db,
  targetBucketId: string,
  accountIds: readonly string[],
  field: string,
): Promise<void> {
  if (accountIds.length === 0) return;
  const members = new Set((await bucketAccounts(db, targetBucketId)).map((a) => a.accountId));
  const strangers = accountIds.filter((a) => !members.has(a));
  if (strangers.length > 0) {
    throw errors.validation('Experts and joiners must be accounts of the target organization', {
      field,
      accountIds: strangers,
    });
  }
}
