import { useQuery } from '@tanstack/react-query';
import { fetchAllowedStatistics } from '../../api/statistics';
import { queryKeys } from '../../api/queryClient';
import { useSessionState } from '../../shared/session/useSessionState';

/**
 * GET buckets/allowed-statistics, once per session: the organizations where the caller holds a
 * statistics action (the navbar shows statistics when there is one) and the caller's groups. Kept
 * under the permissions' key, so it refreshes when they do.
 */
export function useAllowedStatistics() {
  const { session } = useSessionState();
  return useQuery({
    queryKey: [...queryKeys.permissions, 'statistics'],
    queryFn: ({ signal }) => fetchAllowedStatistics(signal),
    enabled: Boolean(session?.accessToken),
  });
}
