/**
 * Test factories (issue 21 step 5): a test builds the groups, organizations, accounts, exams and
 * reports it needs in its own database, instead of looking up the demo seed's by name. Start the
 * app with `startTestApp({ seed: false })` and build:
 *
 *   const org = await makeOrganization(t);                              // a group and an organization in it
 *   const doctor = await makeMember(t, org.bucketId, { actions: ['exam_get', 'report_upsert'] });
 *   const { examId } = await makeExam(t, org.bucketId, { modality: 'MR' });
 *   await makeReport(t, examId, { writer: doctor.token, state: 'submitted' });
 *   await t.as(doctor.token).get(`reports/${examId}/detail`);
 *
 * Tenancy rows are written through the modules' stores, as the demo seed writes them (no audit
 * rows); accounts sign in through POST accounts/login-in; exams go through the archive's ingest
 * (the path STOW-RS, DIMSE and uploads take); reports through their action routes. Test support
 * may import module stores (eslint-rules/boundaries.js): tests import them from here.
 */
import crypto from 'node:crypto';
import { hash as argon2Hash } from '@node-rs/argon2';
import {
  EMPTY_REPORT_CONTENT,
  type Action,
  type GroupAccessLevel,
  type GroupSettings,
  type OrgAccessLevel,
  type ReportContent,
} from '@yyp/contracts';
import type { AccountRow, BucketRow } from '../db/schema.js';
import { generateStudy, type GeneratedStudy, type StudyOptions } from '../dicom/testdata/generate.js';
import { findAccountByUsername, insertAccount } from '../modules/accounts/accounts.store.js';
import type { IngestSource } from '../modules/archive/index.js';
import { insertModality } from '../modules/archive/modalities.store.js';
import { insertExamNotifications } from '../modules/notifications/notifications.store.js';
import { DEFAULT_GROUP_SETTINGS } from '../modules/groups/groups.service.js';
import { addGroupMembers, insertGroup } from '../modules/groups/groups.store.js';
import { addBucketMembers, findBucket, insertBucket } from '../modules/organizations/organizations.store.js';
import { insertRole, setRoleMembers } from '../modules/roles/roles.store.js';
import { savePackage } from '../modules/exams/exams.store.js';
import { deleteColorRule, insertColorRule } from '../modules/rules/rules.store.js';
import type { TestApp } from './harness.js';

/** The password of every factory-made account unless a test chooses one. */
export const TEST_PASSWORD = 'Factory@2026';

/** A short suffix no other call in the process gives: names, codes and patient ids never collide. */
let counter = 0;
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}${crypto.randomBytes(3).toString('hex')}`;
}

/**
 * Factory accounts' argon2id cost, 1 MiB and 1 pass: a login verifies in ~0.3 ms rather than ~30 at
 * the production cost (platform/passwords.ts), which the demo seed's accounts and every password the
 * API sets (registration, password changes, temporary passwords) still use and their tests sign in with.
 */
const FACTORY_HASH_COST = { memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

const hashes = new Map<string, Promise<string>>();
/** Each password is hashed once per process. */
function hashOnce(password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) {
    h = argon2Hash(password, FACTORY_HASH_COST);
    hashes.set(password, h);
  }
  return h;
}

const dbOf = (t: TestApp) => t.db.database.db;

/* ---------- groups and organizations ---------- */

export interface GroupOptions {
  id?: string;
  displayName?: string;
  /** Group settings over DEFAULT_GROUP_SETTINGS (the defaults a new group gets). */
  settings?: Partial<GroupSettings>;
  /** Shorthand for settings.enablePrivacy. */
  enablePrivacy?: boolean;
}

export interface BuiltGroup {
  groupId: string;
  displayName: string;
}

/** A group with DEFAULT_GROUP_SETTINGS (privacy off) unless `settings`/`enablePrivacy` say otherwise. */
export async function makeGroup(t: TestApp, options: GroupOptions = {}): Promise<BuiltGroup> {
  const displayName = options.displayName ?? unique('测试集团');
  const settings: GroupSettings = {
    ...DEFAULT_GROUP_SETTINGS,
    ...options.settings,
    ...(options.enablePrivacy !== undefined ? { enablePrivacy: options.enablePrivacy } : {}),
  };
  const row = await insertGroup(
    dbOf(t),
    // created_by is nullable (an account deleted later leaves it null): a factory group has no creator.
    { id: options.id ?? unique('grp-'), displayName, settings, createdBy: null as unknown as string },
    t.clock.now(),
  );
  if (!row) throw new Error(`makeGroup: the id or name of ${displayName} is taken`);
  return { groupId: row.id, displayName: row.displayName };
}

export interface OrganizationOptions {
  /** The group it belongs to; a new group (built with `group`) when absent. */
  groupId?: string;
  group?: GroupOptions;
  name?: string;
  /** Unique; a generated one unless given (null: none). */
  code?: string | null;
  isPrivate?: boolean;
  /** A plan (spec 000 §3); a private organization gets a year's plan of 1000 studies unless given. */
  plan?: { kind: 'period' | 'oneTime'; quota: number | null; expiresAt: Date | null } | null;
}

export interface BuiltOrganization {
  bucketId: string;
  groupId: string;
  name: string;
  code: string | null;
}

/** An organization (bucket); in a new group unless `groupId` names one. */
export async function makeOrganization(t: TestApp, options: OrganizationOptions = {}): Promise<BuiltOrganization> {
  const groupId = options.groupId ?? (await makeGroup(t, options.group)).groupId;
  const now = t.clock.now();
  const plan =
    options.plan !== undefined
      ? options.plan
      : options.isPrivate
        ? { kind: 'period' as const, quota: 1000, expiresAt: new Date(now.getTime() + 365 * 86_400_000) }
        : null;
  const row = await insertBucket(
    dbOf(t),
    {
      groupId,
      name: options.name ?? unique('科室'),
      code: options.code === undefined ? unique('ORG-') : options.code,
      isPrivate: options.isPrivate ?? false,
      ...(plan ? { planKind: plan.kind, planQuota: plan.quota, planExpiresAt: plan.expiresAt } : {}),
    },
    now,
  );
  return { bucketId: row.id, groupId, name: row.name, code: row.code };
}

/** A modality (AE title) allowed to send to the organization by DICOM. */
export async function makeModality(
  t: TestApp,
  bucketId: string,
  modality: { aeTitle: string; host?: string | null; name?: string; port?: number | null },
): Promise<void> {
  await insertModality(
    dbOf(t),
    bucketId,
    {
      aeTitle: modality.aeTitle,
      host: modality.host ?? null,
      name: modality.name ?? modality.aeTitle,
      port: modality.port ?? null,
    },
    t.clock.now(),
  );
}

type ExamNotification = Parameters<typeof insertExamNotifications>[1];

/** Exam notifications of the named accounts, written as the notifications service writes them; answers their ids. */
export async function makeExamNotification(t: TestApp, notification: ExamNotification): Promise<string[]> {
  return insertExamNotifications(dbOf(t), notification, t.clock.now());
}

type ColorRuleValues = Parameters<typeof insertColorRule>[2];

/** A colour rule of the group's study list; answers its id and a function that deletes it. */
export async function makeColorRule(
  t: TestApp,
  groupId: string,
  values: ColorRuleValues,
  at: Date = t.clock.now(),
): Promise<{ id: string; remove(): Promise<boolean> }> {
  const row = await insertColorRule(dbOf(t), groupId, values, at);
  return { id: row.id, remove: () => deleteColorRule(dbOf(t), groupId, row.id) };
}

/* ---------- accounts, memberships, roles ---------- */

export interface AccountOptions {
  username?: string;
  name?: string;
  password?: string;
  platformAdmin?: boolean;
  canCreateGroup?: boolean;
  /** Sign in and answer a bearer token (default true). */
  signIn?: boolean;
}

export interface BuiltAccount {
  accountId: string;
  username: string;
  name: string;
  password: string;
  /** Bearer token for `t.as(token)` / `t.call(..., { token })`; '' when built with signIn: false. */
  token: string;
}

/** An account with a password (changed now, so not expired), signed in unless `signIn: false`. */
export async function makeAccount(t: TestApp, options: AccountOptions = {}): Promise<BuiltAccount> {
  const username = options.username ?? unique('user');
  const password = options.password ?? TEST_PASSWORD;
  const now = t.clock.now();
  const row = await insertAccount(
    dbOf(t),
    {
      username,
      name: options.name ?? username,
      passwordHash: await hashOnce(password),
      passwordChangedAt: now,
      isPlatformAdmin: options.platformAdmin ?? false,
      canCreateGroup: options.canCreateGroup ?? options.platformAdmin ?? false,
    },
    now,
  );
  if (!row) throw new Error(`makeAccount: username ${username} is taken`);
  const token = options.signIn === false ? '' : await t.login(username, password);
  return { accountId: row.id, username, name: row.name, password, token };
}

/** Puts accounts in a group at an access level (0 member, 1 admin, 9 auditor, 10 security admin). */
export async function joinGroup(
  t: TestApp,
  groupId: string,
  accountIds: string | string[],
  level: GroupAccessLevel = 0,
): Promise<void> {
  await addGroupMembers(dbOf(t), groupId, [accountIds].flat(), level, t.clock.now());
}

export interface RoleOptions {
  name?: string;
  /** The accounts that hold it. */
  members?: string[];
}

/** A role of the organization with exactly these actions; answers its id. */
export async function makeRole(
  t: TestApp,
  bucketId: string,
  actions: readonly Action[],
  options: RoleOptions = {},
): Promise<string> {
  const role = await insertRole(dbOf(t), bucketId, options.name ?? unique('角色'), [...actions], t.clock.now());
  if (options.members?.length) await setRoleMembers(dbOf(t), role.id, options.members);
  return role.id;
}

export interface MembershipOptions {
  /** Organization level (default member). */
  level?: OrgAccessLevel;
  /** Actions of a role made for this membership (none: no role). */
  actions?: readonly Action[];
  roleName?: string;
  /** Group level when the account is not yet in the organization's group (default 0). */
  groupLevel?: GroupAccessLevel;
}

/**
 * Makes the account a member of the organization (and of its group), holding a new role with
 * exactly `actions` when any are given; answers the role's id.
 */
export async function joinOrganization(
  t: TestApp,
  bucketId: string,
  accountId: string,
  options: MembershipOptions = {},
): Promise<{ roleId: string | null }> {
  const bucket = await organizationRow(t, bucketId);
  await joinGroup(t, bucket.groupId, accountId, options.groupLevel ?? 0);
  await addBucketMembers(dbOf(t), bucketId, [accountId], options.level ?? 'member', t.clock.now());
  const roleId = options.actions?.length
    ? await makeRole(t, bucketId, options.actions, { name: options.roleName, members: [accountId] })
    : null;
  return { roleId };
}

export type BuiltMember = BuiltAccount & { roleId: string | null };

/** A new account, member of the organization with a role of exactly `actions`, signed in. */
export async function makeMember(
  t: TestApp,
  bucketId: string,
  options: AccountOptions & MembershipOptions = {},
): Promise<BuiltMember> {
  const account = await makeAccount(t, options);
  const { roleId } = await joinOrganization(t, bucketId, account.accountId, options);
  return { ...account, roleId };
}

/** A new account in the group at `level` (1 admin unless given) and in none of its organizations. */
export async function makeGroupMember(
  t: TestApp,
  groupId: string,
  level: GroupAccessLevel = 1,
  options: AccountOptions = {},
): Promise<BuiltAccount> {
  const account = await makeAccount(t, options);
  await joinGroup(t, groupId, account.accountId, level);
  return account;
}

/** Signs an account in again (e.g. after the clock moved past its token's life). */
export function signIn(t: TestApp, account: Pick<BuiltAccount, 'username' | 'password'>): Promise<string> {
  return t.login(account.username, account.password);
}

/** The account row of a username (for tests that check what a command or route wrote). */
export function accountByUsername(t: TestApp | TestApp['db'], username: string): Promise<AccountRow | undefined> {
  const db = 'database' in t ? t.database.db : dbOf(t);
  return findAccountByUsername(db, username);
}

async function organizationRow(t: TestApp, bucketId: string): Promise<BucketRow> {
  const row = await findBucket(dbOf(t), bucketId);
  if (!row) throw new Error(`no organization ${bucketId}`);
  return row;
}

/* ---------- exams and reports ---------- */

export interface ExamOptions extends Partial<StudyOptions> {
  /** The ingest path recorded for the exam (default web). */
  source?: IngestSource;
}

export interface BuiltExam {
  examId: string;
  study: GeneratedStudy;
}

/**
 * An exam through the archive's ingest (every instance of a generated study): by default a
 * one-slice 16×16 CT of a patient whose id no other exam has.
 */
export async function makeExam(t: TestApp, bucketId: string, options: ExamOptions = {}): Promise<BuiltExam> {
  const { source = 'web', ...studyOptions } = options;
  const study = generateStudy({
    modality: 'CT',
    instancesPerSeries: 1,
    rows: 16,
    columns: 16,
    patientId: unique('PID-'),
    ...studyOptions,
  });
  let examId = '';
  for (const instance of study.instances) {
    examId = (await t.services.archive.ingest(bucketId, instance.bytes, source)).examId;
  }
  return { examId, study };
}

/** Records `blobKey` (already in the blob store) as the exam's cached study package, built at `builtAt`. */
export async function makeCachedPackage(
  t: TestApp,
  examId: string,
  pkg: { blobKey: string; size: number; builtAt?: Date },
): Promise<void> {
  await savePackage(dbOf(t), examId, pkg.blobKey, pkg.size, pkg.builtAt ?? t.clock.now());
}

export interface ReportOptions {
  /** Token of the writer (report_upsert in the exam's organization). */
  writer: string;
  /** Token of the approver (report_approval) when `state` is approved. */
  approver?: string;
  content?: Partial<ReportContent>;
  /**
   * How far the report goes (default submitted): a draft is saved (status partial), submitted is
   * final, approved is corrected (spec 000 §4).
   */
  state?: 'draft' | 'submitted' | 'approved';
}

/** A report of the exam through its action routes (save, submit, approve); its id is the exam's. */
export async function makeReport(t: TestApp, examId: string, options: ReportOptions): Promise<{ reportId: string }> {
  const content = { ...EMPTY_REPORT_CONTENT, findings: '所见。', conclusion: '结论', ...options.content };
  const state = options.state ?? 'submitted';
  const step = async (token: string, action: string, body: unknown) => {
    const res = await t.as(token).post(`reports/${examId}/${action}`, body);
    if (res.statusCode !== 200) throw new Error(`makeReport ${action}: ${res.statusCode} ${res.body}`);
  };
  await step(options.writer, state === 'draft' ? 'save' : 'submit', { version: 0, content });
  if (state === 'approved') {
    if (!options.approver) throw new Error('makeReport: an approved report needs an approver');
    await step(options.approver, 'approve', {});
  }
  return { reportId: examId };
}
