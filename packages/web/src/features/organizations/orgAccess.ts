import type { Group, Organization } from '@yyp/contracts';
import { isGroupAdmin } from '../../shared/groups/levels';

/** What the caller may do in an organization (spec 000 §6). */
export interface OrgAccess {
  /** Organization admins and group admins manage members, roles and settings. */
  canManage: boolean;
  /** Deleting an organization is for group admins only. */
  canDelete: boolean;
}

export function orgAccessOf(
  group: Pick<Group, 'accessLevel'>,
  organization: Pick<Organization, 'accessLevel'>,
): OrgAccess {
  return {
    canManage: isGroupAdmin(group) || organization.accessLevel === 'admin',
    canDelete: isGroupAdmin(group),
  };
}
