import {
  organizationCalls,
  roleCalls,
  type BucketPlan,
  type DictionaryItem,
  type DictionaryKind,
  type Organization,
  type OrgAccessLevel,
  type OrgMember,
  type Role,
} from '@yyp/contracts';
import { callApi } from './call';
import type {
  ActionCatalogue,
  CreateOrganizationRequest,
  UpdateOrganizationRequest,
  UploadToken,
  UpsertDictionaryItemRequest,
} from './contractTypes';

/**
 * Organization (bucket) calls of spec 001 §7: settings, members, dictionaries, upload token, roles
 * (contracts organizationCalls and roleCalls).
 */

const of = (bucketId: string) => ({ params: { bucketId } });
const inGroup = (groupId: string) => ({ params: { groupId } });
const role = (roleId: string) => ({ params: { roleId } });

export function fetchGroupOrganizations(groupId: string, signal?: AbortSignal): Promise<Organization[]> {
  return callApi(organizationCalls.ofGroup, inGroup(groupId), { signal });
}

export function createOrganization(groupId: string, body: CreateOrganizationRequest): Promise<Organization> {
  return callApi(organizationCalls.create, { ...inGroup(groupId), body });
}

export function fetchAccessibleOrganizations(signal?: AbortSignal): Promise<Organization[]> {
  return callApi(organizationCalls.accessible, {}, { signal });
}

export function fetchOrganization(bucketId: string, signal?: AbortSignal): Promise<Organization> {
  return callApi(organizationCalls.get, of(bucketId), { signal });
}

/** The organization's plan: studies allowed and received, validity, whether uploads are refused now. */
export function fetchOrganizationPlan(bucketId: string, signal?: AbortSignal): Promise<BucketPlan> {
  return callApi(organizationCalls.plan, of(bucketId), { signal });
}

export function updateOrganization(bucketId: string, body: UpdateOrganizationRequest): Promise<Organization> {
  return callApi(organizationCalls.update, { ...of(bucketId), body });
}

export function deleteOrganization(bucketId: string, confirmName: string): Promise<void> {
  return callApi(organizationCalls.remove, { ...of(bucketId), body: { confirmName } });
}

export function fetchOrgMembers(bucketId: string, signal?: AbortSignal): Promise<OrgMember[]> {
  return callApi(organizationCalls.members, of(bucketId), { signal });
}

export function addOrgMembers(
  bucketId: string,
  accountIds: string[],
  accessLevel: OrgAccessLevel,
): Promise<OrgMember[]> {
  return callApi(organizationCalls.addMembers, { ...of(bucketId), body: { accountIds, accessLevel } });
}

export function updateOrgMember(bucketId: string, accountId: string, accessLevel: OrgAccessLevel): Promise<void> {
  return callApi(organizationCalls.updateMember, { params: { bucketId, accountId }, body: { accessLevel } });
}

export function removeOrgMember(bucketId: string, accountId: string): Promise<void> {
  return callApi(organizationCalls.removeMember, { params: { bucketId, accountId } });
}

export function fetchUploadToken(bucketId: string, signal?: AbortSignal): Promise<UploadToken> {
  return callApi(organizationCalls.uploadToken, of(bucketId), { signal });
}

/** Issues a new token; the previous one stops working at once. */
export function rotateUploadToken(bucketId: string): Promise<UploadToken> {
  return callApi(organizationCalls.rotateUploadToken, of(bucketId));
}

export function revokeUploadToken(bucketId: string): Promise<UploadToken> {
  return callApi(organizationCalls.revokeUploadToken, of(bucketId));
}

export function fetchDictionary(
  bucketId: string,
  kind: DictionaryKind,
  signal?: AbortSignal,
): Promise<DictionaryItem[]> {
  return callApi(organizationCalls.dictionary, { params: { bucketId, kind } }, { signal });
}

export function saveDictionaryItem(
  bucketId: string,
  kind: DictionaryKind,
  itemId: string | null,
  body: UpsertDictionaryItemRequest,
): Promise<DictionaryItem> {
  return itemId
    ? callApi(organizationCalls.updateItem, { params: { bucketId, kind, itemId }, body })
    : callApi(organizationCalls.addItem, { params: { bucketId, kind }, body });
}

export function deleteDictionaryItem(bucketId: string, kind: DictionaryKind, itemId: string): Promise<void> {
  return callApi(organizationCalls.removeItem, { params: { bucketId, kind, itemId } });
}

export function fetchActionCatalogue(signal?: AbortSignal): Promise<ActionCatalogue> {
  return callApi(roleCalls.catalogue, {}, { signal });
}

export function fetchRoles(bucketId: string, signal?: AbortSignal): Promise<Role[]> {
  return callApi(roleCalls.list, of(bucketId), { signal });
}

export function saveRole(
  bucketId: string,
  roleId: string | null,
  body: { name: string; actions: string[] },
): Promise<Role> {
  return roleId
    ? callApi(roleCalls.update, { ...role(roleId), body })
    : callApi(roleCalls.create, { ...of(bucketId), body });
}

export function deleteRole(roleId: string, confirmName: string): Promise<void> {
  return callApi(roleCalls.remove, { ...role(roleId), body: { confirmName } });
}

/** Sets the holders of a role; they must be members of its organization. */
export function setRoleHolders(roleId: string, accountIds: string[]): Promise<Role> {
  return callApi(roleCalls.setHolders, { ...role(roleId), body: { accountIds } });
}
