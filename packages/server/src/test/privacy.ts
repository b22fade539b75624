import { demoRoles } from '@yyp/contracts';
import { eq, sql } from 'drizzle-orm';
import { groups, roles } from '../db/schema.js';
import type { Db } from '../platform/db.js';

/**
 * Masking tests of a caller without view_privacy in a group with privacy on (contracts
 * privateFieldsMasked), built on the demo: the hospital group's privacy flag turned on and
 * view_privacy taken from its reporting role, so the demo `doctor` sees masks and the `senior`
 * (审核医生, view_privacy) sees everything. The demo itself keeps the hospital's privacy off.
 * A test without the seed builds the same with test/factories-privacy.ts makeMaskingHospital.
 */
export async function hospitalWithPrivacyOn(db: Db): Promise<void> {
  await setGroupPrivacy(db, 'demo-renhe', true);
  await db
    .update(roles)
    .set({ actions: sql`${roles.actions} - 'view_privacy'` })
    .where(eq(roles.name, demoRoles.reporting.name));
}

/** Sets a group's enablePrivacy flag (as the group admin's settings screen does). */
export async function setGroupPrivacy(db: Db, groupId: string, on: boolean): Promise<void> {
  await db
    .update(groups)
    .set({ settings: sql`${groups.settings} || ${JSON.stringify({ enablePrivacy: on })}::jsonb` })
    .where(eq(groups.id, groupId));
}
