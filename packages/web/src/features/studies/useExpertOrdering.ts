import { useQuery } from '@tanstack/react-query';
import { fetchExpertBuckets } from '../../api/orders';
import { usePermissionsQuery } from '../../shared/permissions/permissions';

/**
 * Which reads an exam's menu offers (issue 24): "Request expert report" / "Request remote report"
 * where the caller holds apply_expert_report / apply_remote_report in the exam's organization and
 * its group has expert organizations (one cached look-up per group, shared with the apply page).
 */
export function useReadOrdering(bucketId: string): { expert: boolean; remote: boolean } {
  const permissions = usePermissionsQuery();
  const entry = permissions.data?.find((p) => p.bucketId === bucketId);
  const expert = Boolean(entry?.actions.includes('apply_expert_report'));
  const remote = Boolean(entry?.actions.includes('apply_remote_report'));
  const allowed = expert || remote;
  const experts = useQuery({
    queryKey: ['groups', entry?.groupId, 'expert-buckets'],
    queryFn: ({ signal }) => fetchExpertBuckets(entry?.groupId ?? '', signal),
    enabled: allowed && Boolean(entry?.groupId),
    staleTime: 5 * 60_000,
  });
  const has = (experts.data?.length ?? 0) > 0;
  return { expert: expert && has, remote: remote && has };
}
