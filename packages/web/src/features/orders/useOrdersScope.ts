import { useQuery } from '@tanstack/react-query';
import { fetchMyOrganizations } from '../../api/accounts';
import { queryKeys } from '../../api/queryClient';
import { usePermissions } from '../../shared/permissions/permissions';

/** The two sides of the order list: orders an organization placed, or orders its experts received. */
export type OrdersSide = 'requested' | 'received';

/**
 * The organizations whose orders the caller may list (exam_get there, as orders/page-query asks),
 * with their names (accounts/me/organizations).
 */
export function useOrdersScope() {
  const held = usePermissions();
  const organizations = useQuery({
    queryKey: queryKeys.organizations,
    queryFn: ({ signal }) => fetchMyOrganizations(signal),
  });
  const options = (organizations.data ?? [])
    .filter((o) => held.can(o.id, 'exam_get'))
    .map((o) => ({ value: o.id, label: o.name }));
  return { options, held, isPending: organizations.isPending || !held.known };
}
