import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { UpdateGroupRequest } from '../../api/contractTypes';
import {
  fetchAssignRules,
  fetchColorRules,
  fetchGroup,
  fetchMyGroups,
  queryGroupMembers,
  updateGroup,
} from '../../api/groups';
import { fetchGroupOrganizations } from '../../api/organizations';
import { queryKeys } from '../../api/queryClient';
import { useSessionState } from '../session/useSessionState';

/** The caller's groups with their level in each (GET groups/mine): drives the navbar and group pages. */
export function useMyGroups() {
  const { session } = useSessionState();
  return useQuery({
    queryKey: queryKeys.myGroups,
    queryFn: ({ signal }) => fetchMyGroups(signal),
    enabled: Boolean(session?.accessToken),
  });
}

export function useGroup(groupId: string) {
  return useQuery({
    queryKey: queryKeys.group(groupId),
    queryFn: ({ signal }) => fetchGroup(groupId, signal),
  });
}

export interface MemberSearch {
  q: string;
  page: number;
  pageSize: number;
}

/** One page of the members of a group (POST groups/:id/members/query). */
export function useGroupMembersPage(groupId: string, search: MemberSearch) {
  return useQuery({
    queryKey: [...queryKeys.groupMembers(groupId), 'page', search],
    queryFn: ({ signal }) =>
      queryGroupMembers(
        groupId,
        { q: search.q || undefined, skip: (search.page - 1) * search.pageSize, limit: search.pageSize },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

/** Every member of a group (up to the server's 500), for choosing people in forms. */
export function useAllGroupMembers(groupId: string, enabled = true) {
  return useQuery({
    queryKey: [...queryKeys.groupMembers(groupId), 'all'],
    queryFn: ({ signal }) => queryGroupMembers(groupId, { skip: 0, limit: 500 }, signal),
    select: (page) => page.members,
    enabled,
  });
}

export function useGroupOrganizations(groupId: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.groupOrganizations(groupId),
    queryFn: ({ signal }) => fetchGroupOrganizations(groupId, signal),
    enabled,
  });
}

export function useAssignRules(groupId: string) {
  return useQuery({
    queryKey: queryKeys.assignRules(groupId),
    queryFn: ({ signal }) => fetchAssignRules(groupId, signal),
  });
}

export function useColorRules(groupId: string) {
  return useQuery({
    queryKey: queryKeys.colorRules(groupId),
    queryFn: ({ signal }) => fetchColorRules(groupId, signal),
  });
}

/** Refresh everything cached about groups (my groups, the navbar, members, organizations). */
export function useRefreshGroups() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: queryKeys.groups }), [queryClient]);
}

/** POST groups/:id/update; the answer replaces the cached group and the group lists refresh. */
export function useUpdateGroup(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateGroupRequest) => updateGroup(groupId, body),
    onSuccess: async (group) => {
      queryClient.setQueryData(queryKeys.group(groupId), group);
      await queryClient.invalidateQueries({ queryKey: queryKeys.myGroups });
    },
  });
}
