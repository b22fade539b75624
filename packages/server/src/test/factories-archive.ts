/**
 * Factories of the archive, DICOMweb, exams and DIMSE integration tests (issue 21 step 5): the
 * organizations and staff these tests used to find in the demo seed, built in each test's own
 * database with test/factories.ts.
 *
 *   const rad = await makeStaffed(t, ['tech', 'doctor']);           // an organization in a new group
 *   const tele = await makeStaffed(t, ['teledoctor'], { group: { enablePrivacy: true } });
 *   await injectStow(t, rad.tech.token, files);
 *
 * Each member holds a role of exactly the actions the demo's role of that name holds (contracts
 * demoRoles), so a test's assertions mean what they meant on the seed; usernames are unique.
 */
import { demoRoles, type Action, type DemoRoleKey, type GroupAccessLevel, type OrgAccessLevel } from '@yyp/contracts';
import { startTestDimse } from './dimse.js';
import {
  makeMember,
  makeModality,
  makeOrganization,
  unique,
  type BuiltMember,
  type BuiltOrganization,
  type OrganizationOptions,
} from './factories.js';
import { startTestApp, type TestApp } from './harness.js';

export interface StaffSpec {
  /** The demo role whose actions the member holds (none: no role). */
  role?: DemoRoleKey;
  /** Actions taken out of the role's (e.g. view_privacy, for a caller who sees masks). */
  without?: readonly Action[];
  /** Actions added to the role's. */
  plus?: readonly Action[];
  /** Organization level (default member). */
  level?: OrgAccessLevel;
  /** Group level (default 0). */
  groupLevel?: GroupAccessLevel;
}

/** The demo's staff by the username it had, as members of the organization they worked in. */
export const DEMO_STAFF = {
  doctor: { role: 'reporting' },
  senior: { role: 'approving' },
  tech: { role: 'technician' },
  registrar: { role: 'registrar' },
  notetaker: { role: 'reporting', level: 'collaborator' },
  groupadmin: { level: 'admin', groupLevel: 1 },
  teledoctor: { role: 'remoteReading' },
  expert: { role: 'approving' },
  teleadmin: { level: 'admin', groupLevel: 1 },
} as const satisfies Record<string, StaffSpec>;
export type StaffName = keyof typeof DEMO_STAFF;

/** The actions of a member built to `spec`. */
export function staffActions(spec: StaffSpec): Action[] {
  const base: readonly Action[] = spec.role ? demoRoles[spec.role].actions : [];
  return [...base.filter((a) => !spec.without?.includes(a)), ...(spec.plus ?? [])];
}

export type Staffed<K extends string> = { org: BuiltOrganization } & Record<K, BuiltMember>;

/**
 * An organization (in a new group unless `org.groupId` names one) with a signed-in member for each
 * name, built as DEMO_STAFF says unless `specs` say otherwise.
 */
export async function makeStaffed<K extends string>(
  t: TestApp,
  who: readonly K[],
  org: OrganizationOptions = {},
  specs: Partial<Record<K, StaffSpec>> = {},
): Promise<Staffed<K>> {
  const built = await makeOrganization(t, org);
  const out = { org: built } as Staffed<K>;
  for (const name of who) {
    const spec: StaffSpec = specs[name] ?? (DEMO_STAFF as Record<string, StaffSpec>)[name] ?? {};
    const member = await makeMember(t, built.bucketId, {
      username: unique(name),
      actions: staffActions(spec),
      level: spec.level,
      groupLevel: spec.groupLevel,
    });
    (out as Record<string, BuiltMember>)[name] = member;
  }
  return out;
}

export interface ArchiveWorld {
  t: TestApp;
  /** The organization the studies go to, with its technician (exam_upload) and reporting doctor. */
  rad: Staffed<'tech' | 'doctor'>;
  /** A reading doctor of another group: sees nothing of `rad`. */
  outsider: BuiltMember;
}

/**
 * The set-up most archive and DICOMweb tests share: an app without the seed, a radiology with a
 * technician and a reporting doctor, and a doctor of another group.
 */
export async function startArchiveApp(options: Parameters<typeof startTestApp>[0] = {}): Promise<ArchiveWorld> {
  const t = await startTestApp({ ...options, seed: false });
  const rad = await makeStaffed(t, ['tech', 'doctor']);
  const outsider = (await makeStaffed(t, ['teledoctor'])).teledoctor;
  return { t, rad, outsider };
}

/**
 * The DIMSE listener of a test app and an organization whose modality (AE title `aeTitle`) may
 * send to it.
 */
export async function startDimseWithModality(
  t: TestApp,
  aeTitle: string,
): Promise<{ dimse: Awaited<ReturnType<typeof startTestDimse>>; bucketId: string }> {
  const { bucketId } = await makeOrganization(t);
  await makeModality(t, bucketId, { aeTitle });
  return { dimse: await startTestDimse(t), bucketId };
}
