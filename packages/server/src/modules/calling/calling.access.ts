import { privateFieldsMasked, type Action } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { SwitchedBucketAccess, type BucketCaller, type BucketGrant } from '../../platform/access.js';
import type { BucketAction, BucketFacts } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';

/** The caller of a calling call: who, and from where (for the audit trail). */
export type CallingCaller = BucketCaller;

/** What a caller may do in one organization's queue. */
export interface CallingGrant extends BucketGrant {
  /** patient names are masked for this caller (group privacy without view_privacy) */
  masked: boolean;
}

/**
 * The caller's calling actions in an organization named by a body, a query or a row, in groups
 * that keep calling on (enableCalling): platform SwitchedBucketAccess, each grant saying whether
 * the caller sees patient names masked.
 */
export class CallingAccess extends SwitchedBucketAccess {
  constructor(db: Db) {
    super(db, 'enableCalling');
  }

  override async require(caller: CallingCaller, bucketId: string, anyOf: readonly Action[]): Promise<CallingGrant> {
    return withMask(await super.require(caller, bucketId, anyOf));
  }

  /** The organizations where the caller holds any of `anyOf`, in groups that keep calling on. */
  override async bucketsWith(account: AccountRow, anyOf: readonly Action[]): Promise<CallingGrant[]> {
    return (await super.bucketsWith(account, anyOf)).map(withMask);
  }
}

function withMask(grant: BucketGrant): CallingGrant {
  return { ...grant, masked: maskedFor(grant.bucket, grant.actions) };
}

function maskedFor(bucket: BucketFacts, actions: Set<BucketAction>): boolean {
  return privateFieldsMasked(
    { groupPrivacy: bucket.enablePrivacy ?? true, viewPrivacy: actions.has('view_privacy') },
    { isPrivacy: false },
  );
}
