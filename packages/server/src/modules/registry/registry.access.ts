import type { Action } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { SwitchedBucketAccess, type BucketCaller, type BucketGrant } from '../../platform/access.js';
import type { Db } from '../../platform/db.js';

/** The caller of a registry call: who, and from where (for the audit trail). */
export type DeskCaller = BucketCaller;

/** The desk actions: holding any of them opens the organization's registry. */
export const DESK_ACTIONS: readonly Action[] = [
  'registry_create',
  'registry_arrive',
  'registry_update',
  'registry_delete',
];

/**
 * The caller's actions in an organization named by a request body or by a row (POST registry's
 * bucketId, a registration's organization), in groups that keep the registry on (enableRegistry):
 * require, requireOn, deny and bucketsWith of platform SwitchedBucketAccess.
 */
export class DeskAccess extends SwitchedBucketAccess {
  constructor(db: Db) {
    super(db, 'enableRegistry');
  }

  /** The organizations where the caller holds any desk action, in groups that keep the registry on. */
  deskBuckets(account: AccountRow): Promise<BucketGrant[]> {
    return this.bucketsWith(account, DESK_ACTIONS);
  }
}
