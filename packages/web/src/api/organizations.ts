import type {
  BucketPlan,
  DictionaryItem,
  DictionaryKind,
  Organization,
  OrgAccessLevel,
  OrgMember,
  Role,
} from '@yyp/contracts';
import { apiRequest } from './client';
import type {
  ActionCatalogue,
  CreateOrganizationRequest,
  UpdateOrganizationRequest,
  UploadToken,
  UpsertDictionaryItemRequest,
} from './contractTypes';

/** Organization (bucket) calls of spec 001 §7: settings, members, dictionaries, upload token, roles. */

const bucket = (bucketId: string) => `buckets/${encodeURIComponent(bucketId)}`;

export function fetchGroupOrganizations(groupId: string, signal?: AbortSignal): Promise<Organization[]> {
  return apiRequest<Organization[]>(`groups/${encodeURIComponent(groupId)}/organizations`, { signal });
}

export function createOrganization(groupId: string, body: CreateOrganizationRequest): Promise<Organization> {
  return apiRequest<Organization>(`groups/${encodeURIComponent(groupId)}/organizations`, { method: 'POST', body });
}

export function fetchAccessibleOrganizations(signal?: AbortSignal): Promise<Organization[]> {
  return apiRequest<Organization[]>('buckets/accessible', { signal });
}

export function fetchOrganization(bucketId: string, signal?: AbortSignal): Promise<Organization> {
  return apiRequest<Organization>(bucket(bucketId), { signal });
}

/** The organization's plan: studies allowed and received, validity, whether uploads are refused now. */
export function fetchOrganizationPlan(bucketId: string, signal?: AbortSignal): Promise<BucketPlan> {
  return apiRequest<BucketPlan>(`${bucket(bucketId)}/plan`, { signal });
}

export function updateOrganization(bucketId: string, body: UpdateOrganizationRequest): Promise<Organization> {
  return apiRequest<Organization>(bucket(bucketId), { method: 'PUT', body });
}

export function deleteOrganization(bucketId: string, confirmName: string): Promise<void> {
  return apiRequest<void>(bucket(bucketId), { method: 'DELETE', body: { confirmName } });
}

export function fetchOrgMembers(bucketId: string, signal?: AbortSignal): Promise<OrgMember[]> {
  return apiRequest<OrgMember[]>(`${bucket(bucketId)}/members`, { signal });
}

export function addOrgMembers(
  bucketId: string,
  accountIds: string[],
  accessLevel: OrgAccessLevel,
): Promise<OrgMember[]> {
  return apiRequest<OrgMember[]>(`${bucket(bucketId)}/members`, { method: 'POST', body: { accountIds, accessLevel } });
}

export function updateOrgMember(bucketId: string, accountId: string, accessLevel: OrgAccessLevel): Promise<void> {
  return apiRequest<void>(`${bucket(bucketId)}/members/${encodeURIComponent(accountId)}`, {
    method: 'PUT',
    body: { accessLevel },
  });
}

export function removeOrgMember(bucketId: string, accountId: string): Promise<void> {
  return apiRequest<void>(`${bucket(bucketId)}/members/${encodeURIComponent(accountId)}`, { method: 'DELETE' });
}

export function fetchUploadToken(bucketId: string, signal?: AbortSignal): Promise<UploadToken> {
  return apiRequest<UploadToken>(`${bucket(bucketId)}/upload/token`, { signal });
}

/** Issues a new token; the previous one stops working at once. */
export function rotateUploadToken(bucketId: string): Promise<UploadToken> {
  return apiRequest<UploadToken>(`${bucket(bucketId)}/upload/token`, { method: 'POST' });
}

export function revokeUploadToken(bucketId: string): Promise<UploadToken> {
  return apiRequest<UploadToken>(`${bucket(bucketId)}/upload/token`, { method: 'DELETE' });
}

export function fetchDictionary(
  bucketId: string,
  kind: DictionaryKind,
  signal?: AbortSignal,
): Promise<DictionaryItem[]> {
  return apiRequest<DictionaryItem[]>(`${bucket(bucketId)}/${kind}`, { signal });
}

export function saveDictionaryItem(
  bucketId: string,
  kind: DictionaryKind,
  itemId: string | null,
  body: UpsertDictionaryItemRequest,
): Promise<DictionaryItem> {
  return itemId
    ? apiRequest<DictionaryItem>(`${bucket(bucketId)}/${kind}/${encodeURIComponent(itemId)}`, { method: 'PUT', body })
    : apiRequest<DictionaryItem>(`${bucket(bucketId)}/${kind}`, { method: 'POST', body });
}

export function deleteDictionaryItem(bucketId: string, kind: DictionaryKind, itemId: string): Promise<void> {
  return apiRequest<void>(`${bucket(bucketId)}/${kind}/${encodeURIComponent(itemId)}`, { method: 'DELETE' });
}

export function fetchActionCatalogue(signal?: AbortSignal): Promise<ActionCatalogue> {
  return apiRequest<ActionCatalogue>('actions/all', { signal });
}

export function fetchRoles(bucketId: string, signal?: AbortSignal): Promise<Role[]> {
  return apiRequest<Role[]>(`${bucket(bucketId)}/roles`, { signal });
}

export function saveRole(
  bucketId: string,
  roleId: string | null,
  body: { name: string; actions: string[] },
): Promise<Role> {
  return roleId
    ? apiRequest<Role>(`roles/${encodeURIComponent(roleId)}`, { method: 'PUT', body })
    : apiRequest<Role>(`${bucket(bucketId)}/roles`, { method: 'POST', body });
}

export function deleteRole(roleId: string, confirmName: string): Promise<void> {
  return apiRequest<void>(`roles/${encodeURIComponent(roleId)}`, { method: 'DELETE', body: { confirmName } });
}

/** Sets the holders of a role; they must be members of its organization. */
export function setRoleHolders(roleId: string, accountIds: string[]): Promise<Role> {
  return apiRequest<Role>(`roles/${encodeURIComponent(roleId)}/mappings`, { method: 'PUT', body: { accountIds } });
}
