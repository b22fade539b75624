import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DictionaryKind } from '@yyp/contracts';
import { useCallback } from 'react';
import {
  fetchActionCatalogue,
  fetchDictionary,
  fetchOrganization,
  fetchOrganizationPlan,
  fetchOrgMembers,
  fetchRoles,
  fetchUploadToken,
} from '../../api/organizations';
import { queryKeys } from '../../api/queryClient';

export function useOrganization(bucketId: string) {
  return useQuery({
    queryKey: queryKeys.organization(bucketId),
    queryFn: ({ signal }) => fetchOrganization(bucketId, signal),
  });
}

export function useOrganizationPlan(bucketId: string) {
  return useQuery({
    queryKey: queryKeys.organizationPlan(bucketId),
    queryFn: ({ signal }) => fetchOrganizationPlan(bucketId, signal),
  });
}

export function useOrgMembers(bucketId: string) {
  return useQuery({
    queryKey: queryKeys.orgMembers(bucketId),
    queryFn: ({ signal }) => fetchOrgMembers(bucketId, signal),
  });
}

export function useRoles(bucketId: string) {
  return useQuery({
    queryKey: queryKeys.roles(bucketId),
    queryFn: ({ signal }) => fetchRoles(bucketId, signal),
  });
}

/** The action catalogue by category (GET actions/all); it changes only with a new release. */
export function useActionCatalogue() {
  return useQuery({
    queryKey: queryKeys.actionCatalogue,
    queryFn: ({ signal }) => fetchActionCatalogue(signal),
    staleTime: Infinity,
  });
}

export function useDictionary(bucketId: string, kind: DictionaryKind) {
  return useQuery({
    queryKey: queryKeys.dictionary(bucketId, kind),
    queryFn: ({ signal }) => fetchDictionary(bucketId, kind, signal),
  });
}

export function useUploadToken(bucketId: string) {
  return useQuery({
    queryKey: queryKeys.uploadToken(bucketId),
    queryFn: ({ signal }) => fetchUploadToken(bucketId, signal),
  });
}

/**
 * Refresh an organization and what depends on it: its members, roles, the group's organization
 * list (counts) and the caller's own permissions (they may have just changed).
 */
export function useRefreshOrganization(bucketId: string) {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.organization(bucketId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.groups }),
      queryClient.invalidateQueries({ queryKey: queryKeys.permissions }),
      queryClient.invalidateQueries({ queryKey: queryKeys.organizations }),
    ]);
  }, [queryClient, bucketId]);
}
