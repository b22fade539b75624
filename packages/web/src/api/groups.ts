import {
  assignRuleCalls,
  colorRuleCalls,
  groupCalls,
  type Group,
  type GroupAccessLevel,
  type GroupMember,
} from '@yyp/contracts';
import { callApi } from './call';
import type {
  AssignRule,
  ColorRule,
  CreateMemberAccountRequest,
  MemberPage,
  UpdateGroupRequest,
  UpsertAssignRuleRequest,
  UpsertColorRuleRequest,
} from './contractTypes';

/**
 * Group calls of spec 001 §7: the group, its members and its assign and color rules (contracts
 * groupCalls, assignRuleCalls and colorRuleCalls).
 */

const of = (groupId: string) => ({ params: { groupId } });
const rule = (groupId: string, ruleId: string) => ({ params: { groupId, ruleId } });

export function fetchGroupNameAvailable(name: string, signal?: AbortSignal): Promise<{ available: boolean }> {
  return callApi(groupCalls.available, { query: { name } }, { signal });
}

export function createGroup(displayName: string): Promise<Group> {
  return callApi(groupCalls.create, { body: { displayName } });
}

export function fetchMyGroups(signal?: AbortSignal): Promise<Group[]> {
  return callApi(groupCalls.mine, {}, { signal });
}

export function fetchGroup(groupId: string, signal?: AbortSignal): Promise<Group> {
  return callApi(groupCalls.get, of(groupId), { signal });
}

export function updateGroup(groupId: string, body: UpdateGroupRequest): Promise<Group> {
  return callApi(groupCalls.update, { ...of(groupId), body });
}

export function deleteGroup(groupId: string, confirmName: string): Promise<void> {
  return callApi(groupCalls.remove, { ...of(groupId), body: { confirmName } });
}

export function quitGroup(groupId: string): Promise<void> {
  return callApi(groupCalls.quit, of(groupId));
}

export function queryGroupMembers(
  groupId: string,
  body: { q?: string; skip?: number; limit?: number },
  signal?: AbortSignal,
): Promise<MemberPage> {
  return callApi(groupCalls.queryMembers, { ...of(groupId), body }, { signal });
}

export function fetchGroupMembers(groupId: string, signal?: AbortSignal): Promise<MemberPage> {
  return callApi(groupCalls.members, of(groupId), { signal });
}

export function inviteGroupMembers(
  groupId: string,
  accountIds: string[],
  accessLevel: GroupAccessLevel,
): Promise<{ added: string[] }> {
  return callApi(groupCalls.invite, { ...of(groupId), body: { accountIds, accessLevel } });
}

/** The new account must replace this initial password at its first login. */
export function createMemberAccount(groupId: string, body: CreateMemberAccountRequest): Promise<GroupMember> {
  return callApi(groupCalls.createAccount, { ...of(groupId), body });
}

export function updateGroupMember(groupId: string, accountId: string, accessLevel: GroupAccessLevel): Promise<void> {
  return callApi(groupCalls.updateMember, { params: { groupId, accountId }, body: { accessLevel } });
}

export function removeGroupMember(groupId: string, accountId: string): Promise<void> {
  return callApi(groupCalls.removeMember, { params: { groupId, accountId } });
}

export function fetchAssignRules(groupId: string, signal?: AbortSignal): Promise<AssignRule[]> {
  return callApi(assignRuleCalls.list, of(groupId), { signal });
}

export function saveAssignRule(
  groupId: string,
  ruleId: string | null,
  body: UpsertAssignRuleRequest,
): Promise<AssignRule> {
  return ruleId
    ? callApi(assignRuleCalls.update, { ...rule(groupId, ruleId), body })
    : callApi(assignRuleCalls.add, { ...of(groupId), body });
}

export function deleteAssignRule(groupId: string, ruleId: string): Promise<void> {
  return callApi(assignRuleCalls.remove, rule(groupId, ruleId));
}

export function fetchColorRules(groupId: string, signal?: AbortSignal): Promise<ColorRule[]> {
  return callApi(colorRuleCalls.list, of(groupId), { signal });
}

export function saveColorRule(
  groupId: string,
  ruleId: string | null,
  body: UpsertColorRuleRequest,
): Promise<ColorRule> {
  return ruleId
    ? callApi(colorRuleCalls.update, { ...rule(groupId, ruleId), body })
    : callApi(colorRuleCalls.add, { ...of(groupId), body });
}

export function deleteColorRule(groupId: string, ruleId: string): Promise<void> {
  return callApi(colorRuleCalls.remove, rule(groupId, ruleId));
}
