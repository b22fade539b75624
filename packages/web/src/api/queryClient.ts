import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './errors';

/** Retry only what may succeed on a second try: network trouble and 5xx, never a 4xx. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) {
    return false;
  }
  if (!isApiError(error)) {
    return false;
  }
  return error.code === 'NetworkError' || error.status >= 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export const queryKeys = {
  domain: ['domain'] as const,
  me: ['accounts', 'me'] as const,
  permissions: ['accounts', 'me', 'permissions'] as const,
  organizations: ['accounts', 'me', 'organizations'] as const,
  /** Organizations the user may upload into: under permissions, so it refreshes with them. */
  uploadableBuckets: ['accounts', 'me', 'permissions', 'uploadable'] as const,
  /** Everything about groups starts with 'groups', so one invalidation refreshes them all. */
  groups: ['groups'] as const,
  myGroups: ['groups', 'mine'] as const,
  group: (groupId: string) => ['groups', groupId] as const,
  groupMembers: (groupId: string) => ['groups', groupId, 'members'] as const,
  groupOrganizations: (groupId: string) => ['groups', groupId, 'organizations'] as const,
  assignRules: (groupId: string) => ['groups', groupId, 'rules'] as const,
  colorRules: (groupId: string) => ['groups', groupId, 'color-rules'] as const,
  organization: (bucketId: string) => ['buckets', bucketId] as const,
  organizationPlan: (bucketId: string) => ['buckets', bucketId, 'plan'] as const,
  orgMembers: (bucketId: string) => ['buckets', bucketId, 'members'] as const,
  roles: (bucketId: string) => ['buckets', bucketId, 'roles'] as const,
  dictionary: (bucketId: string, kind: string) => ['buckets', bucketId, 'dictionary', kind] as const,
  uploadToken: (bucketId: string) => ['buckets', bucketId, 'upload-token'] as const,
  actionCatalogue: ['actions', 'all'] as const,
  realm: (groupId: string) => ['admin', 'realm', groupId] as const,
  auditLogs: (groupId: string) => ['admin', 'audit-logs', groupId] as const,
  /** refused DICOM associations: a group's, or all of them (null, the platform admin) */
  dicomRefusals: (groupId: string | null) => ['admin', 'dicom-refusals', groupId ?? 'all'] as const,
  notifications: ['notifications'] as const,
  notificationStatus: ['notifications', 'status'] as const,
  notificationList: ['notifications', 'list'] as const,
};

/**
 * Drop everything cached for the signed-in user. The public domain configuration stays, so the
 * login page keeps its branding while the user signs out.
 */
export function clearUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.domain[0] });
}
