import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryClient';
import { fetchUploadableBuckets } from '../../api/uploads';
import { useSessionState } from '../session/useSessionState';

/** Organizations the signed-in user may upload into (exam_upload): the wizard's choice, the entry. */
export function useUploadableBuckets() {
  const { session } = useSessionState();
  return useQuery({
    queryKey: queryKeys.uploadableBuckets,
    queryFn: ({ signal }) => fetchUploadableBuckets(signal),
    enabled: Boolean(session?.accessToken),
  });
}
