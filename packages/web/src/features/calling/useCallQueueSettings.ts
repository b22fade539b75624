import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallingSettings, QueueTypeInput } from '@yyp/contracts';
import {
  addQueueType,
  deleteQueueType,
  fetchCallingSettings,
  fetchScreenTokens,
  issueScreenToken,
  revokeScreenToken,
  saveCallingSettings,
  updateQueueType,
} from '../../api/calling';
import { callingKeys } from './useCallingQueue';

/** The organization's call queue settings (queue types, announcement, screen tokens): queries and saves. */

export const settingsKeys = {
  settings: (bucketId: string) => ['buckets', bucketId, 'calling-settings'] as const,
  tokens: (bucketId: string) => ['buckets', bucketId, 'screen-tokens'] as const,
};

export function useSaveQueueType(bucketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: QueueTypeInput }) =>
      id ? updateQueueType(id, body) : addQueueType({ ...body, bucketId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: callingKeys.queueTypes(bucketId) }),
  });
}

export function useDeleteQueueType(bucketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteQueueType(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: callingKeys.queueTypes(bucketId) }),
  });
}

export function useCallingSettings(bucketId: string) {
  return useQuery({
    queryKey: settingsKeys.settings(bucketId),
    queryFn: ({ signal }) => fetchCallingSettings(bucketId, signal),
  });
}

export function useSaveCallingSettings(bucketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CallingSettings) => saveCallingSettings(bucketId, body),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.settings(bucketId), saved),
  });
}

export function useScreenTokens(bucketId: string) {
  return useQuery({
    queryKey: settingsKeys.tokens(bucketId),
    queryFn: ({ signal }) => fetchScreenTokens(bucketId, signal),
  });
}

export function useScreenTokenCommands(bucketId: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKeys.tokens(bucketId) });
  const issue = useMutation({ mutationFn: (label: string) => issueScreenToken(bucketId, label), onSettled: refresh });
  const revoke = useMutation({ mutationFn: (id: string) => revokeScreenToken(id), onSettled: refresh });
  return { issue, revoke };
}
