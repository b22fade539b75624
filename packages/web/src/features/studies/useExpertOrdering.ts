import { useQuery } from '@tanstack/react-query';
import { fetchExpertBuckets } from '../../api/orders';
import { usePermissionsQuery } from '../../shared/permissions/permissions';

/**
 * Whether an exam's menu offers "Request expert report" (issue 24): the caller holds
 * apply_expert_report in the exam's organization and its group has expert organizations (one
 * cached look-up per group, shared with the apply page).
 */
export function useCanRequestExpertReport(bucketId: string): boolean {
  const permissions = usePermissionsQuery();
  const entry = permissions.data?.find((p) => p.bucketId === bucketId);
  const allowed = Boolean(entry?.actions.includes('apply_expert_report'));
  const experts = useQuery({
    queryKey: ['groups', entry?.groupId, 'expert-buckets'],
    queryFn: ({ signal }) => fetchExpertBuckets(entry?.groupId ?? '', signal),
    enabled: allowed && Boolean(entry?.groupId),
    staleTime: 5 * 60_000,
  });
  return allowed && (experts.data?.length ?? 0) > 0;
}
