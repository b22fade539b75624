import { useQuery } from '@tanstack/react-query';
import { fetchMyOrganizations } from '../../api/accounts';
import { queryKeys } from '../../api/queryClient';
import { usePermissions } from '../../shared/permissions/permissions';

/** The actions of those who deal with orders (the order list's nav entry shows for them). */
export const ORDER_ACTIONS = ['apply_expert_report', 'apply_remote_report', 'payment_refund', 'issue_invoice'];

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
  // those where the caller orders, refunds or invoices first: the list opens on one with orders
  const ordering = (id: string) => ORDER_ACTIONS.some((a) => held.can(id, a));
  const options = (organizations.data ?? [])
    .filter((o) => held.can(o.id, 'exam_get'))
    .sort((a, b) => Number(ordering(b.id)) - Number(ordering(a.id)))
    .map((o) => ({ value: o.id, label: o.name }));
  return { options, held, isPending: organizations.isPending || !held.known };
}
