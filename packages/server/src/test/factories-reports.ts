/**
 * Test factories of the report areas (report-library, report-print, report-safety,
 * report-sharing, viewing; issue 21 step 5): a hospital group of the shape those tests tell
 * their stories in, built with test/factories.ts instead of looked up in the demo seed.
 *
 *   t = await startTestApp({ seed: false });
 *   const h = await makeHospital(t, ['doctor', 'senior', 'teleadmin']);
 *   await t.as(h.tok.doctor!).get(`reports/${examId}/detail`);
 *
 * Each staff member gets the memberships and the role actions its demo namesake had (so an
 * assertion means what it meant on the seed), under the same username and display name.
 */
import { demoRoles, type Action, type OrgAccessLevel } from '@yyp/contracts';
import type { StudyOptions } from '../dicom/testdata/generate.js';
import { insertDictionaryItem } from '../modules/organizations/organizations.store.js';
import { insertAssignRule } from '../modules/rules/rules.store.js';
import { seedReportLibrary } from '../seed/report-library.js';
import { joinOrganization, makeAccount, makeExam, makeOrganization, signIn, type BuiltAccount } from './factories.js';
import type { TestApp } from './harness.js';

/* ---------- the actions of the roles the stories use ---------- */

/** The role actions the stories' staff hold: those of the radiology roles a department starts with. */
export const REPORTING: readonly Action[] = demoRoles.reporting.actions;
export const APPROVING: readonly Action[] = demoRoles.approving.actions;
export const REMOTE_READING: readonly Action[] = demoRoles.remoteReading.actions;
export const TECHNICIAN: readonly Action[] = demoRoles.technician.actions;
export const REGISTRAR: readonly Action[] = demoRoles.registrar.actions;

/* ---------- the hospital ---------- */

type Org = 'radiology' | 'ultrasound' | 'checkup' | 'tele';
interface Seat {
  org: Org;
  level: OrgAccessLevel;
  actions?: readonly Action[];
}
interface StaffShape {
  name: string;
  /** Level in the hospital group (or, for tele staff, in the teleradiology group). */
  groupLevel: 0 | 1;
  seats: Seat[];
  platformAdmin?: boolean;
  canCreateGroup?: boolean;
}

/** Who works where, as the stories of the report tests tell it. */
const STAFF = {
  admin: { name: '平台管理员', groupLevel: 0, seats: [], platformAdmin: true },
  doctor: {
    name: '李医生',
    groupLevel: 0,
    seats: [
      { org: 'radiology', level: 'member', actions: REPORTING },
      { org: 'ultrasound', level: 'member', actions: REPORTING },
    ],
  },
  senior: {
    name: '王主任',
    groupLevel: 0,
    seats: [
      { org: 'radiology', level: 'member', actions: APPROVING },
      { org: 'ultrasound', level: 'contentManager' },
      { org: 'checkup', level: 'member', actions: APPROVING },
    ],
  },
  tech: { name: '张技师', groupLevel: 0, seats: [{ org: 'radiology', level: 'member', actions: TECHNICIAN }] },
  registrar: { name: '赵登记', groupLevel: 0, seats: [{ org: 'radiology', level: 'member', actions: REGISTRAR }] },
  notetaker: {
    name: '钱记录',
    groupLevel: 0,
    seats: [{ org: 'radiology', level: 'collaborator', actions: REPORTING }],
  },
  groupadmin: {
    name: '周管理',
    groupLevel: 1,
    seats: [{ org: 'radiology', level: 'admin' }],
    canCreateGroup: true,
  },
  teleadmin: { name: '冯主任', groupLevel: 1, seats: [{ org: 'tele', level: 'admin' }] },
  teledoctor: { name: '陈医生', groupLevel: 0, seats: [{ org: 'tele', level: 'member', actions: REMOTE_READING }] },
} satisfies Record<string, StaffShape>;

export type Staff = keyof typeof STAFF;

export interface HospitalOptions {
  /**
   * The hospital group's privacy feature on, and view_privacy left out of the reporting doctors'
   * actions, so `doctor` sees masked names and `senior` everything (as factories-privacy.ts makeMaskingHospital).
   */
  privacy?: boolean;
  /** Items of radiology's dictionaries by kind, e.g. `{ 'critical-values': CRITICAL_VALUES }`. */
  dictionary?: Record<string, readonly string[]>;
  /** The radiology doctor new CT exams are assigned to (the group's assignment rule). */
  assignCtTo?: Staff;
}

export interface Hospital {
  /** The hospital group (放射科, 超声科 and the private 体检中心) and the teleradiology group. */
  groupId: string;
  teleGroupId: string;
  radiology: string;
  ultrasound: string;
  checkup: string;
  tele: string;
  /** Tokens and accounts of the staff built, by username. */
  tok: Record<string, string>;
  staff: Record<string, BuiltAccount>;
}

/** The hospital with the named staff members (each signed in); password TEST_PASSWORD. */
export async function makeHospital(
  t: TestApp,
  who: readonly Staff[],
  options: HospitalOptions = {},
): Promise<Hospital> {
  const radiology = await makeOrganization(t, {
    name: '放射科',
    group: { displayName: '仁和医院', enablePrivacy: options.privacy ?? false },
  });
  const { groupId } = radiology;
  const ultrasound = await makeOrganization(t, { groupId, name: '超声科' });
  const checkup = await makeOrganization(t, { groupId, name: '体检中心', isPrivate: true });
  const tele = await makeOrganization(t, {
    name: '远程诊断中心',
    group: { displayName: '协和远程影像中心', enablePrivacy: true },
  });
  const orgs: Record<Org, string> = {
    radiology: radiology.bucketId,
    ultrasound: ultrasound.bucketId,
    checkup: checkup.bucketId,
    tele: tele.bucketId,
  };
  const h: Hospital = {
    groupId,
    teleGroupId: tele.groupId,
    ...orgs,
    tok: {},
    staff: {},
  };
  for (const username of who) {
    const shape: StaffShape = STAFF[username];
    const account = await makeAccount(t, {
      username,
      name: shape.name,
      platformAdmin: shape.platformAdmin,
      canCreateGroup: shape.canCreateGroup,
    });
    for (const seat of shape.seats) {
      const actions =
        options.privacy && seat.actions === REPORTING ? REPORTING.filter((a) => a !== 'view_privacy') : seat.actions;
      const joined = { level: seat.level, actions, groupLevel: shape.groupLevel };
      await joinOrganization(t, orgs[seat.org], account.accountId, joined);
    }
    h.staff[username] = account;
    h.tok[username] = account.token;
  }
  for (const [kind, names] of Object.entries(options.dictionary ?? {})) {
    for (const [sort, name] of names.entries()) {
      const item = { bucketId: h.radiology, kind, name, data: {}, sort };
      await insertDictionaryItem(t.db.database.db, item, t.clock.now());
    }
  }
  if (options.assignCtTo) {
    const doctorId = h.staff[options.assignCtTo]?.accountId ?? null;
    await insertAssignRule(
      t.db.database.db,
      groupId,
      { name: 'CT 默认分配', bucketIds: [h.radiology], doctorId, modality: 'CT', memberIds: [], priority: 1 },
      t.clock.now(),
    );
  }
  return h;
}

/** Signs the staff in again (tokens age with the test clock): `h.tok` holds the new tokens. */
export async function signInStaff(t: TestApp, h: Hospital, who: readonly Staff[] = Object.keys(h.staff) as Staff[]) {
  for (const username of who) h.tok[username] = await signIn(t, h.staff[username]!);
}

/**
 * The starter report library a radiology department begins with (normal-study templates, the
 * knowledge base's folders of phrases, image description templates) in each organization.
 */
export async function makeReportLibrary(t: TestApp, ...bucketIds: string[]): Promise<void> {
  for (const bucketId of bucketIds) await seedReportLibrary(t.db.database.db, bucketId, t.clock.now());
}

/** The critical values the demo's departments pick from. */
export const CRITICAL_VALUES = ['气胸', '主动脉夹层', '急性脑出血', '肺动脉栓塞'] as const;

/** A one-slice CT exam (patient named in GB18030) in the organization; its id is its report's id. */
export async function ctExam(t: TestApp, bucketId: string, study: Partial<StudyOptions> = {}): Promise<string> {
  return (await makeExam(t, bucketId, { patientName: '张^三', charset: 'GB18030', ...study })).examId;
}
