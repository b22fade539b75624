import type { UploadBlock } from '@yyp/contracts';

/** The plan fields of an organization that decide whether it may receive uploads. */
export interface PlanState {
  isPrivate: boolean;
  planKind: string | null;
  planQuota: number | null;
  planUsed: number;
  planExpiresAt: Date | null;
}

/**
 * Spec 000 §5: "Only a private bucket with remaining quota and valid subscription can receive
 * uploads." A public organization always can. A private one needs a plan that has not expired
 * and, for new studies, quota left (quota counts studies; instances of a study already received
 * still complete it). `newStudies` is how many new studies the upload would add.
 */
export function uploadBlock(bucket: PlanState, now: Date, newStudies = 1): UploadBlock | null {
  if (!bucket.isPrivate) return null;
  if (bucket.planKind === null) return 'SubscriptionExpired';
  if (bucket.planExpiresAt !== null && bucket.planExpiresAt.getTime() <= now.getTime()) return 'SubscriptionExpired';
  if (newStudies > 0 && bucket.planQuota !== null && bucket.planUsed + newStudies > bucket.planQuota) {
    return 'BucketFull';
  }
  return null;
}

/** An instance refused because its organization cannot receive uploads now (not a DICOM fault). */
export class IngestRefused extends Error {
  constructor(readonly reason: UploadBlock) {
    super(
      reason === 'BucketFull'
        ? 'The organization has used its whole plan quota'
        : 'The organization has no valid subscription',
    );
    this.name = 'IngestRefused';
  }
}
