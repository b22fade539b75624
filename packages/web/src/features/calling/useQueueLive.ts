import { useQueryClient } from '@tanstack/react-query';
import { queueTopic, SCREEN_AUTH_SCHEME } from '@yyp/contracts';
import { useEffect, useMemo, useState } from 'react';
import { LiveClient, type LiveStatus } from '../../shared/live';
import { useLiveStatus, useLiveTopic } from '../../shared/liveHooks';
import { callingKeys } from './useCallingQueue';
import { screenKey } from './useScreenQueue';

/**
 * /calling on the organization's queue topic (`queue:<bucketId>`), over the signed-in account's
 * shared live socket: every event, and every resync after a gap, reads the queue again.
 * `connected` says the socket is open (the page then polls slowly; otherwise every 2 s).
 */
export function useQueueLive(bucketId: string): { connected: boolean } {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: callingKeys.queue(bucketId) });
  useLiveTopic(queueTopic(bucketId), refresh, { onResync: refresh });
  // Re-rendered at each change of the shared socket's status, so the page says "live" as soon as it opens.
  const status = useLiveStatus();
  return { connected: status === 'open' };
}

/**
 * The screen's own live socket, authenticated by its screen token (scheme Screen), on its
 * organization's queue topic: every event and every resync reads the screen's queue again. It is
 * closed when the page goes (no socket or timer left behind).
 */
export function useScreenLive(bucketId: string, token: string | null): { connected: boolean } {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('idle');
  const client = useMemo(
    () =>
      token ? new LiveClient({ auth: () => ({ token, scheme: SCREEN_AUTH_SCHEME }), onStatus: setStatus }) : undefined,
    [token],
  );
  useEffect(() => () => client?.close(), [client]);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: screenKey(bucketId) });
  useLiveTopic(client ? queueTopic(bucketId) : null, refresh, { onResync: refresh, client });
  return { connected: status === 'open' };
}
