import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OPEN_QUEUE_STATUSES, QUEUE_PAGE_SIZE, type QueueActionInput, type QueueActionResult } from '@yyp/contracts';
import { callNext, fetchQueueTypes, queryQueue, queueAction, resortQueueExam } from '../../api/calling';

/** How often a queue is read again when no live event tells of a change (issue 23: polling stays as fallback). */
export const POLL_MS = 2_000;
/** With live events flowing, the list is still read now and then (a missed event heals). */
export const LIVE_POLL_MS = 30_000;

export const callingKeys = {
  queueTypes: (bucketId: string) => ['buckets', bucketId, 'queue-types'] as const,
  queue: (bucketId: string) => ['buckets', bucketId, 'queue-exams'] as const,
  day: (bucketId: string, queueTypeId: string) => ['buckets', bucketId, 'queue-exams', queueTypeId] as const,
};

export function useQueueTypes(bucketId: string | undefined) {
  return useQuery({
    queryKey: callingKeys.queueTypes(bucketId ?? ''),
    queryFn: ({ signal }) => fetchQueueTypes(bucketId as string, signal),
    enabled: Boolean(bucketId),
    staleTime: 30_000,
  });
}

/** Today's open queue of one queue type (waiting, called, missed), read again every POLL_MS unless live. */
export function useQueueDay(bucketId: string | undefined, queueTypeId: string | undefined, live: boolean) {
  return useQuery({
    queryKey: callingKeys.day(bucketId ?? '', queueTypeId ?? ''),
    queryFn: ({ signal }) =>
      queryQueue(
        { bucketId: bucketId!, queueTypeId, statuses: [...OPEN_QUEUE_STATUSES], limit: QUEUE_PAGE_SIZE },
        signal,
      ),
    enabled: Boolean(bucketId && queueTypeId),
    placeholderData: keepPreviousData,
    refetchInterval: live ? LIVE_POLL_MS : POLL_MS,
    refetchIntervalInBackground: true,
  });
}

export type QueueCommand =
  | { kind: 'callNext'; queueTypeId: string }
  | { kind: 'action'; id: string; input: QueueActionInput }
  | { kind: 'resort'; id: string; targetQueueNo: number };

/** The calls that change the queue; each reads the organization's queue again when it answers. */
export function useQueueCommands(bucketId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (command: QueueCommand): Promise<QueueActionResult | null> => {
      if (command.kind === 'callNext') return callNext({ queueTypeId: command.queueTypeId });
      if (command.kind === 'action') return queueAction(command.id, command.input);
      await resortQueueExam(command.id, command.targetQueueNo);
      return null;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: callingKeys.queue(bucketId ?? '') }),
  });
}
