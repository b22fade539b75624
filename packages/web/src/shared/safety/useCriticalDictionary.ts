import { useQuery } from '@tanstack/react-query';
import { fetchDictionary } from '../../api/organizations';
import { safetyKeys } from '../queries/safetyKeys';

/** The organization's critical-value dictionary, read when the report dialog opens. */
export function useCriticalDictionary(bucketId: string, enabled: boolean) {
  return useQuery({
    queryKey: safetyKeys.dictionary(bucketId),
    queryFn: ({ signal }) => fetchDictionary(bucketId, 'critical-values', signal),
    enabled: enabled && bucketId !== '',
  });
}
