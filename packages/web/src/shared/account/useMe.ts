import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UpdateMeRequest, User } from '@yyp/contracts';
import { fetchMe, updateMe } from '../../api/accounts';
import { queryKeys } from '../../api/queryClient';
import { useSessionState } from '../session/useSessionState';

/** The signed-in user (GET accounts/me); only asked while a token is stored. */
export function useMe() {
  const { session } = useSessionState();
  return useQuery({
    queryKey: queryKeys.me,
    queryFn: ({ signal }) => fetchMe(signal),
    enabled: Boolean(session?.accessToken),
    staleTime: 5 * 60_000,
  });
}

export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMeRequest) => updateMe(body),
    onSuccess: (user: User) => {
      queryClient.setQueryData(queryKeys.me, user);
    },
  });
}
