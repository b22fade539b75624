import { eq } from 'drizzle-orm';
import { buckets, groupConsultationBuckets, groups } from '../db/schema.js';
import type { Db } from '../platform/db.js';

/**
 * The demo's consultations (issue 25): the hospital group (仁和医院) has consultations on and asks
 * the teleradiology centre (XH-TELE), its consultation target and default, where the demo expert
 * (`expert`, approving: consultation_update and consultation_submitSuggestion) answers. The
 * hospital's reporting doctor requests, binds the exam and attaches documents (demoRoles.reporting).
 * Idempotent: a group that already names its targets is left as it is.
 */
export async function seedDemoConsultations(db: Db, now: Date): Promise<void> {
  const [target] = await db.select().from(buckets).where(eq(buckets.code, 'XH-TELE'));
  const [hospital] = await db.select().from(groups).where(eq(groups.id, 'demo-renhe'));
  if (!target || !hospital) return;
  const named = await db
    .select({ b: groupConsultationBuckets.bucketId })
    .from(groupConsultationBuckets)
    .where(eq(groupConsultationBuckets.groupId, hospital.id));
  if (named.length > 0) return;
  await db.transaction(async (tx) => {
    await tx.insert(groupConsultationBuckets).values({ groupId: hospital.id, bucketId: target.id, created: now });
    await tx
      .update(groups)
      .set({
        settings: { ...hospital.settings, enableConsultation: true, defaultConsultationBucketId: target.id },
      })
      .where(eq(groups.id, hospital.id));
  });
}
