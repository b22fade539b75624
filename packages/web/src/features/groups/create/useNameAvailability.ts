import { useQuery } from '@tanstack/react-query';
import { fetchGroupNameAvailable } from '../../../api/groups';
import { useDebouncedValue } from '../../../ui/useDebouncedValue';

export const GROUP_NAME_MIN = 2;
export const GROUP_NAME_MAX = 64;
const CHECK_DELAY_MS = 350;

export type NameAvailability = 'idle' | 'checking' | 'available' | 'taken' | 'failed';

export function isGroupNameLength(name: string): boolean {
  const length = name.trim().length;
  return length >= GROUP_NAME_MIN && length <= GROUP_NAME_MAX;
}

/**
 * Live check of a group name (GET groups/available) while it is typed: asked once the typing
 * pauses, only for names of a valid length. The server checks again on creation.
 */
export function useNameAvailability(name: string): NameAvailability {
  const trimmed = name.trim();
  const settled = useDebouncedValue(trimmed, CHECK_DELAY_MS);
  const enabled = isGroupNameLength(settled);
  const query = useQuery({
    queryKey: ['groups', 'available', settled],
    queryFn: ({ signal }) => fetchGroupNameAvailable(settled, signal),
    enabled,
    staleTime: 5_000,
  });
  if (!isGroupNameLength(trimmed)) {
    return 'idle';
  }
  if (settled !== trimmed || query.isPending) {
    return 'checking';
  }
  if (query.isError) {
    return 'failed';
  }
  return query.data.available ? 'available' : 'taken';
}
