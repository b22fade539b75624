import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateOrganizationRequest } from '../../../api/contractTypes';
import { updateOrganization } from '../../../api/organizations';
import { queryKeys } from '../../../api/queryClient';

/** PUT buckets/:id; the answer replaces the cached organization and the group's list refreshes. */
export function useUpdateOrganization(bucketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrganizationRequest) => updateOrganization(bucketId, body),
    onSuccess: async (organization) => {
      queryClient.setQueryData(queryKeys.organization(bucketId), organization);
      await queryClient.invalidateQueries({ queryKey: queryKeys.groupOrganizations(organization.groupId) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.uploadToken(bucketId) });
    },
  });
}
