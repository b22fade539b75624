import { LIVE_HEARTBEAT_MS } from '@yyp/contracts';

/**
 * The live client's timing rules as pure functions (shared/live.ts uses them; tested alone).
 */

/** First reconnect delay and the most a client ever waits between attempts. */
export const LIVE_RECONNECT_MIN_MS = 500;
export const LIVE_RECONNECT_MAX_MS = 30_000;
/** A connection that heard nothing (not even a heartbeat) for this long is dead: reconnect. */
export const LIVE_SILENCE_MS = 2 * LIVE_HEARTBEAT_MS + 5_000;
/** A connection that stayed up this long resets the backoff. */
export const LIVE_STABLE_MS = 10_000;

/**
 * Delay before reconnect attempt n (0-based): exponential from min to max with "full jitter" in the
 * upper half, so a hundred screens dropped by one server restart do not come back in one instant.
 */
export function liveReconnectDelay(
  attempt: number,
  random: () => number = Math.random,
  minMs = LIVE_RECONNECT_MIN_MS,
  maxMs = LIVE_RECONNECT_MAX_MS,
): number {
  const ceiling = Math.min(maxMs, minMs * 2 ** Math.min(Math.max(attempt, 0), 20));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** The live socket's address for a page served from `location` (ws: beside http:, wss: beside https:). */
export function liveSocketUrl(location: { protocol: string; host: string }, path: string): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
}

/** Remembers the last `size` event ids, to drop a repeat; bounded so a screen can run for days. */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly size = 256) {}
  /** true when the id is new (and remembers it) */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.size) this.ids.delete(this.ids.values().next().value!);
    return true;
  }
  get count(): number {
    return this.ids.size;
  }
}
