import { FOLLOW_MIN_INTERVAL_MS, followSendDelay, sameView, type ViewState } from '@yyp/contracts';

export interface CoalescerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const browserClock: CoalescerClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The presenter's sender: every change of the view is pushed, at most one state goes per
 * FOLLOW_MIN_INTERVAL_MS (≤ 10 per second), and the last state pushed wins (the states between are
 * dropped). A state the same view as the last one sent is not sent again, unless forced (the
 * answer to a follower's view-request, a reconnect).
 */
export class FollowCoalescer {
  private lastSentAt: number | null = null;
  private lastSent: ViewState | null = null;
  private pending: ViewState | null = null;
  private timer: unknown = null;

  constructor(
    private readonly send: (state: ViewState) => boolean,
    private readonly clock: CoalescerClock = browserClock,
    private readonly interval = FOLLOW_MIN_INTERVAL_MS,
  ) {}

  /** A new state of the view: sent now, or when the interval allows (replacing any waiting one). */
  push(state: ViewState, force = false): void {
    if (!force && this.pending === null && this.lastSent && sameView(this.lastSent, state)) return;
    if (force) this.lastSent = null;
    this.pending = state;
    if (this.timer !== null) return;
    const delay = followSendDelay(this.lastSentAt, this.clock.now(), this.interval);
    if (delay === 0) this.flush();
    else this.timer = this.clock.setTimeout(() => this.flush(), delay);
  }

  /** Sends the waiting state now (if any). */
  flush(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    const state = this.pending;
    this.pending = null;
    if (!state) return;
    if (this.lastSent && sameView(this.lastSent, state)) return;
    if (this.send(state)) {
      this.lastSent = state;
      this.lastSentAt = this.clock.now();
    }
  }

  /** Drops the waiting state and forgets what was sent (presenting stopped). */
  reset(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
    this.lastSent = null;
    this.lastSentAt = null;
  }
}
