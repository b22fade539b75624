import { useQuery } from '@tanstack/react-query';
import { CALLING_CALL, CALLING_MANAGE, type CallingBucket } from '@yyp/contracts';
import { fetchCallingBuckets } from '../../api/calling';
import { useSessionState } from '../../shared/session/useSessionState';

export const callingBucketsKey = ['calling-buckets'] as const;

/**
 * The organizations whose queue the caller works at (GET calling-buckets: calling_call or
 * calling_manage_queue, in a group with calling on): /calling's picker and the navbar entry.
 */
export function useCallingBuckets() {
  const { session } = useSessionState();
  return useQuery({
    queryKey: callingBucketsKey,
    queryFn: ({ signal }) => fetchCallingBuckets(signal),
    enabled: Boolean(session?.accessToken),
    staleTime: 60_000,
  });
}

export const canCall = (bucket: CallingBucket | undefined) => bucket?.actions.includes(CALLING_CALL) === true;
export const canManageQueue = (bucket: CallingBucket | undefined) => bucket?.actions.includes(CALLING_MANAGE) === true;
