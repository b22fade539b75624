import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { accountLiveClient, type LiveClient, type LiveStatus } from './live';

/**
 * Follows a live topic while the component is mounted (null: none). onEvent gets each event,
 * onResync is called after a gap (refetch from the API then). The callbacks may change between
 * renders without resubscribing. `client` defaults to the signed-in account's shared client; a
 * screen page passes its own (created with its screen token).
 */
export function useLiveTopic(
  topic: string | null,
  onEvent: (event: unknown, id: string) => void,
  options: { onResync?: () => void; onRefused?: () => void; client?: LiveClient } = {},
): void {
  const latest = useRef({ onEvent, ...options });
  latest.current = { onEvent, ...options };
  const client = options.client;
  useEffect(() => {
    if (!topic) return undefined;
    return (client ?? accountLiveClient()).subscribe(topic, {
      onEvent: (event, id) => latest.current.onEvent(event, id),
      onResync: () => latest.current.onResync?.(),
      onRefused: () => latest.current.onRefused?.(),
    });
  }, [topic, client]);
}

/** The live client's status ('open' when events flow), re-rendering at each change. */
export function useLiveStatus(client?: LiveClient): LiveStatus {
  const live = client ?? accountLiveClient();
  const subscribe = useCallback((onChange: () => void) => live.watchStatus(onChange), [live]);
  return useSyncExternalStore(subscribe, () => live.status);
}
