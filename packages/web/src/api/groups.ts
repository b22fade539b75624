import type { Group, GroupAccessLevel, GroupMember } from '@yyp/contracts';
import { apiRequest } from './client';
import type {
  AssignRule,
  ColorRule,
  CreateMemberAccountRequest,
  MemberPage,
  UpdateGroupRequest,
  UpsertAssignRuleRequest,
  UpsertColorRuleRequest,
} from './contractTypes';

/** Group calls of spec 001 §7: the group, its members and its assign and color rules. */

const group = (groupId: string) => `groups/${encodeURIComponent(groupId)}`;

export function fetchGroupNameAvailable(name: string, signal?: AbortSignal): Promise<{ available: boolean }> {
  return apiRequest<{ available: boolean }>('groups/available', { query: { name }, signal });
}

export function createGroup(displayName: string): Promise<Group> {
  return apiRequest<Group>('groups', { method: 'POST', body: { displayName } });
}

export function fetchMyGroups(signal?: AbortSignal): Promise<Group[]> {
  return apiRequest<Group[]>('groups/mine', { signal });
}

export function fetchGroup(groupId: string, signal?: AbortSignal): Promise<Group> {
  return apiRequest<Group>(group(groupId), { signal });
}

export function updateGroup(groupId: string, body: UpdateGroupRequest): Promise<Group> {
  return apiRequest<Group>(`${group(groupId)}/update`, { method: 'POST', body });
}

export function deleteGroup(groupId: string, confirmName: string): Promise<void> {
  return apiRequest<void>(group(groupId), { method: 'DELETE', body: { confirmName } });
}

export function quitGroup(groupId: string): Promise<void> {
  return apiRequest<void>(`${group(groupId)}/quit`, { method: 'POST' });
}

export function queryGroupMembers(
  groupId: string,
  body: { q?: string; skip?: number; limit?: number },
  signal?: AbortSignal,
): Promise<MemberPage> {
  return apiRequest<MemberPage>(`${group(groupId)}/members/query`, { method: 'POST', body, signal });
}

export function fetchGroupMembers(groupId: string, signal?: AbortSignal): Promise<MemberPage> {
  return apiRequest<MemberPage>(`${group(groupId)}/members`, { signal });
}

export function inviteGroupMembers(
  groupId: string,
  accountIds: string[],
  accessLevel: GroupAccessLevel,
): Promise<{ added: string[] }> {
  return apiRequest<{ added: string[] }>(`${group(groupId)}/members/invite`, {
    method: 'POST',
    body: { accountIds, accessLevel },
  });
}

/** The new account must replace this initial password at its first login. */
export function createMemberAccount(groupId: string, body: CreateMemberAccountRequest): Promise<GroupMember> {
  return apiRequest<GroupMember>(`${group(groupId)}/members/create-account`, { method: 'POST', body });
}

export function updateGroupMember(groupId: string, accountId: string, accessLevel: GroupAccessLevel): Promise<void> {
  return apiRequest<void>(`${group(groupId)}/members/${encodeURIComponent(accountId)}`, {
    method: 'PUT',
    body: { accessLevel },
  });
}

export function removeGroupMember(groupId: string, accountId: string): Promise<void> {
  return apiRequest<void>(`${group(groupId)}/members/${encodeURIComponent(accountId)}`, { method: 'DELETE' });
}

export function fetchAssignRules(groupId: string, signal?: AbortSignal): Promise<AssignRule[]> {
  return apiRequest<AssignRule[]>(`${group(groupId)}/rules`, { signal });
}

export function saveAssignRule(
  groupId: string,
  ruleId: string | null,
  body: UpsertAssignRuleRequest,
): Promise<AssignRule> {
  return ruleId
    ? apiRequest<AssignRule>(`${group(groupId)}/rules/${encodeURIComponent(ruleId)}`, { method: 'PUT', body })
    : apiRequest<AssignRule>(`${group(groupId)}/rules`, { method: 'POST', body });
}

export function deleteAssignRule(groupId: string, ruleId: string): Promise<void> {
  return apiRequest<void>(`${group(groupId)}/rules/${encodeURIComponent(ruleId)}`, { method: 'DELETE' });
}

export function fetchColorRules(groupId: string, signal?: AbortSignal): Promise<ColorRule[]> {
  return apiRequest<ColorRule[]>(`${group(groupId)}/color-rules`, { signal });
}

export function saveColorRule(
  groupId: string,
  ruleId: string | null,
  body: UpsertColorRuleRequest,
): Promise<ColorRule> {
  return ruleId
    ? apiRequest<ColorRule>(`${group(groupId)}/color-rules/${encodeURIComponent(ruleId)}`, { method: 'PUT', body })
    : apiRequest<ColorRule>(`${group(groupId)}/color-rules`, { method: 'POST', body });
}

export function deleteColorRule(groupId: string, ruleId: string): Promise<void> {
  return apiRequest<void>(`${group(groupId)}/color-rules/${encodeURIComponent(ruleId)}`, { method: 'DELETE' });
}
