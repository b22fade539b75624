import { useQueryClient } from '@tanstack/react-query';
import { callingKeys } from './useCallingQueue';

/**
 * The organization's queue topic (`queue:<bucketId>`) on the live socket: every event reads the
 * queue again. `connected` says events flow (the page then polls slowly); until the live client
 * is there the page polls every 2 s.
 */
export function useQueueLive(bucketId: string): { connected: boolean } {
  const queryClient = useQueryClient();
  void queryClient;
  void callingKeys.queue(bucketId);
  return { connected: false };
}

/** The screen's live topic, authenticated by its screen token: every event reads the screen's queue again. */
export function useScreenLive(bucketId: string, token: string | null): { connected: boolean } {
  void bucketId;
  void token;
  return { connected: false };
}
