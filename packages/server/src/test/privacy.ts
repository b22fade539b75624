import { demoRoles } from '@yyp/contracts';
import { eq, sql } from 'drizzle-orm';
import { buckets, groups, roles } from '../db/schema.js';
import { generateStudy, type GeneratedStudy, type StudyOptions } from '../dicom/testdata/generate.js';
import type { Db } from '../platform/db.js';
import type { TestApp } from './harness.js';

/**
 * Masking tests of a caller without view_privacy in a group with privacy on (contracts
 * privateFieldsMasked), built on the demo: the hospital group's privacy flag turned on and
 * view_privacy taken from its reporting role, so the demo `doctor` sees masks and the `senior`
 * (审核医生, view_privacy) sees everything. The demo itself keeps the hospital's privacy off.
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

/**
 * The demo organizations the privacy tests store into: 仁和医院's 放射科 (RH-RAD, privacy off as
 * seeded) and the teleradiology group's (XH-TELE, privacy on).
 */
export async function privacyBuckets(db: Db): Promise<{ rad: string; tele: string }> {
  const idOf = async (code: string) => (await db.select().from(buckets).where(eq(buckets.code, code)))[0]!.id;
  return { rad: await idOf('RH-RAD'), tele: await idOf('XH-TELE') };
}

/** A small CT (one 16×16 slice unless `options` say otherwise) of a patient named in GB18030. */
export function privacyStudy(
  patientName: string,
  patientId: string,
  options: Partial<StudyOptions> = {},
): GeneratedStudy {
  return generateStudy({
    modality: 'CT',
    instancesPerSeries: 1,
    rows: 16,
    columns: 16,
    patientName,
    charset: 'GB18030',
    patientId,
    ...options,
  });
}

/** The demo accounts whose view of a patient the privacy tests compare. */
export const PRIVACY_READERS = ['doctor', 'registrar', 'tech', 'notetaker', 'teledoctor', 'expert', 'groupadmin'];

/** Signs each account in: its token by username. */
export async function loginAll(t: TestApp, usernames: readonly string[]): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const who of usernames) tokens[who] = await t.login(who);
  return tokens;
}
