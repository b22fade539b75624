import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScreenQueue } from '@yyp/contracts';
import { useEffect, useRef, useState } from 'react';
import { fetchScreenQueue } from '../../api/calling';
import { isApiError } from '../../api/errors';
import { unannouncedCalls } from './callingView';
import { LIVE_POLL_MS, POLL_MS } from './useCallingQueue';

export type ScreenStatus = 'online' | 'polling' | 'offline';

export const screenKey = (bucketId: string) => ['screen', bucketId, 'queue'] as const;

/** A revoked or unknown token (401): the screen stops asking. A 403 (calling switched off) keeps trying. */
const refused = (error: unknown) => isApiError(error) && error.status === 401;

/**
 * The screen's queue (GET screen/queue with its token), read again on every live event, every 2 s
 * without live events (every 30 s with them), and retried for ever after a network drop or a server
 * restart — except when the token is refused (revoked): then it stops. New calls go to `onCall`
 * with their announcement, each once.
 */
export function useScreenQueue(bucketId: string, token: string | null, live: boolean, onCall: (text: string) => void) {
  const query = useQuery({
    queryKey: screenKey(bucketId),
    queryFn: ({ signal }) => fetchScreenQueue(token!, signal),
    enabled: Boolean(token),
    refetchInterval: (q) => (refused(q.state.error) ? false : live ? LIVE_POLL_MS : POLL_MS),
    refetchIntervalInBackground: true,
    retry: (_count, error) => !refused(error),
    retryDelay: (attempt) => Math.min(1_000 * 2 ** attempt, 10_000),
    // The screen shows the last good answer through a drop (and says it is reconnecting).
    gcTime: Infinity,
  });

  const seen = useRef<string[] | null>(null);
  const say = useRef(onCall);
  useEffect(() => {
    say.current = onCall;
  });
  const data: ScreenQueue | undefined = query.data;
  useEffect(() => {
    if (!data) return;
    const { fresh, seen: next } = unannouncedCalls(seen.current, data.calls);
    seen.current = next;
    for (const call of fresh) {
      say.current(data.announcements[call.queueExamId] ?? `${call.queueNo} ${call.name} ${call.room}`);
    }
  }, [data]);

  const down = query.isError || query.failureCount > 0 || !query.data;
  const status: ScreenStatus = down ? 'offline' : live ? 'online' : 'polling';
  return { query, status, refused: refused(query.error) };
}

/** Reads the screen's queue again now (a live event said it changed). */
export function useRefreshScreen(bucketId: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: screenKey(bucketId) });
}

/** The current time, ticking once a second (one timer, cleared on unmount). */
export function useClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
