import {
  ACTION_CATALOGUE,
  GROUP_ACCESS_LEVELS,
  privateFieldsMasked,
  type Action,
  type GroupAccessLevel,
  type OrgAccessLevel,
  type PrivacyContext,
} from '@yyp/contracts';
import { AppError } from './errors.js';

/**
 * The one authorization decision (DESIGN.md "Authorization"): pure, so it is tested over every
 * level × action, and fed by a per-request snapshot of the caller's memberships.
 */

/** Administrative powers that are not in the role catalogue of spec 000 §6. */
export const ADMIN_ACTIONS = [
  'bucket_read', // see the organization and its dictionaries
  'bucket_manage', // settings, dictionaries, upload token of the organization
  'bucket_members_manage', // organization members and their levels
  'role_manage', // roles, their actions and mappings
  'bucket_delete', // delete the organization: group admins only
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];
export type BucketAction = Action | AdminAction;

export const GROUP_POWERS = ['group_read', 'group_manage', 'audit_read', 'account_status'] as const;
export type GroupPower = (typeof GROUP_POWERS)[number];

export interface BucketFacts {
  id: string;
  groupId: string;
  isPrivate: boolean;
  /**
   * The group's enablePrivacy flag (spec 000 §6), read with the facts by every loader in
   * platform/access.ts; absent reads as on, so facts built without it mask (the safe side).
   */
  enablePrivacy?: boolean;
}

export interface Membership {
  orgLevel: OrgAccessLevel;
  /** union of the actions of the caller's roles in this bucket */
  roleActions: ReadonlySet<string>;
}

export interface CallerAccess {
  accountId: string;
  /** group id → the caller's access level there */
  groupLevels: ReadonlyMap<string, GroupAccessLevel>;
  /** bucket id → the caller's organization membership */
  memberships: ReadonlyMap<string, Membership>;
}

export type Decision = 'allow' | 'forbidden' | 'notFound';

const CONTENT_CATEGORIES = ['exam', 'report', 'attachment'] as const;
const contentActions = new Set<string>(CONTENT_CATEGORIES.flatMap((c) => ACTION_CATALOGUE[c]));
const reportActions = new Set<string>(ACTION_CATALOGUE.report);

/** A bucket is visible to members of its group; a private one only to its members and group admins. */
export function canSee(caller: CallerAccess, bucket: BucketFacts): boolean {
  const level = caller.groupLevels.get(bucket.groupId);
  if (level === undefined) return false;
  if (!bucket.isPrivate) return true;
  return caller.memberships.has(bucket.id) || level === GROUP_ACCESS_LEVELS.admin;
}

/** The actions the caller holds in a bucket it can see. */
export function effectiveActions(caller: CallerAccess, bucket: BucketFacts): Set<BucketAction> {
  const out = new Set<BucketAction>();
  if (!canSee(caller, bucket)) return out;
  out.add('bucket_read');
  const groupLevel = caller.groupLevels.get(bucket.groupId);
  const m = caller.memberships.get(bucket.id);
  if (groupLevel === GROUP_ACCESS_LEVELS.admin) {
    out.add('bucket_delete');
    out.add('bucket_manage');
    out.add('bucket_members_manage');
    out.add('role_manage');
    out.add('exam_bind');
  }
  if (!m) return out;
  switch (m.orgLevel) {
    case 'admin':
      out.add('bucket_manage');
      out.add('bucket_members_manage');
      out.add('role_manage');
      out.add('exam_bind');
      for (const a of m.roleActions) out.add(a as Action);
      break;
    case 'contentManager':
      for (const a of contentActions) out.add(a as Action);
      for (const a of m.roleActions) out.add(a as Action);
      break;
    case 'collaborator':
      // Report-related rights only, whatever its roles say.
      for (const a of m.roleActions) if (reportActions.has(a)) out.add(a as Action);
      break;
    case 'member':
      for (const a of m.roleActions) out.add(a as Action);
      break;
  }
  // Binding images replaces an exam's data: admins only (spec 000 §6), whatever a role grants.
  if (groupLevel !== GROUP_ACCESS_LEVELS.admin && m.orgLevel !== 'admin') out.delete('exam_bind');
  // Writing a report needs its exam read: the list, the exam, its images (issue 20 item 2: a
  // collaborator's "report-related rights" and a role with report_upsert without exam_get reach
  // the exams they report). Reading only: no exam_update, delete, upload, export or package.
  if (out.has('report_upsert')) out.add('exam_get');
  return out;
}

/** The privacy facts of one caller in one organization (see contracts privateFieldsMasked). */
export function privacyOf(caller: CallerAccess, bucket: BucketFacts): PrivacyContext {
  return {
    groupPrivacy: bucket.enablePrivacy !== false,
    viewPrivacy: effectiveActions(caller, bucket).has('view_privacy'),
  };
}

/** Whether the caller sees this exam of the bucket with its private fields masked. */
export function examMasked(caller: CallerAccess, bucket: BucketFacts, exam: { isPrivacy: boolean }): boolean {
  return privateFieldsMasked(privacyOf(caller, bucket), exam);
}

/**
 * The refusal of stored study files (DICOMweb retrieval, study packages, download links) to a
 * caller who sees the exam masked: a stored file carries the private fields unmasked.
 */
export function maskedFilesRefused(): AppError {
  return new AppError(
    'InsufficientPermissions',
    "The patient's private fields are masked for you (view_privacy): stored DICOM files carry them unmasked and are not served; read the study's metadata and frames",
    { action: 'view_privacy' },
  );
}

export function decide(caller: CallerAccess, action: BucketAction, bucket: BucketFacts | undefined): Decision {
  if (!bucket || !canSee(caller, bucket)) return 'notFound';
  return effectiveActions(caller, bucket).has(action) ? 'allow' : 'forbidden';
}

/**
 * Group powers of spec 000 §6: members see members and organizations; admins administer;
 * auditors read the operation logs; security admins enable and disable accounts. The three
 * administrative levels are kept apart (separation of duties): none holds another's power.
 */
export function groupPowers(level: GroupAccessLevel | undefined): Set<GroupPower> {
  const out = new Set<GroupPower>();
  if (level === undefined) return out;
  out.add('group_read');
  if (level === GROUP_ACCESS_LEVELS.admin) out.add('group_manage');
  if (level === GROUP_ACCESS_LEVELS.auditor) out.add('audit_read');
  if (level === GROUP_ACCESS_LEVELS.securityAdmin) out.add('account_status');
  return out;
}

export function decideGroup(caller: CallerAccess, power: GroupPower, groupId: string | undefined): Decision {
  if (!groupId) return 'notFound';
  const level = caller.groupLevels.get(groupId);
  if (level === undefined) return 'notFound';
  return groupPowers(level).has(power) ? 'allow' : 'forbidden';
}
