import { describe, expect, it } from 'vitest';
import type { ViewState } from '@yyp/contracts';
import { FollowCoalescer, type CoalescerClock } from './followCoalescer';

const state = (image: number): ViewState => ({
  studyUid: '1.2',
  seriesUid: '1.2.3',
  image,
  voi: { center: 40, width: 400 },
  invert: false,
  rotation: 0,
  flipH: false,
  flipV: false,
  camera: { scale: 100, focal: [0, 0, 0] },
  measurements: [],
});

/** A clock the test moves by hand. */
function fakeClock() {
  let now = 1_000;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let next = 0;
  const clock: CoalescerClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = ++next;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    for (const t of due) t.fn();
  };
  return { clock, advance, pending: () => timers.length };
}

describe('FollowCoalescer', () => {
  it('sends the first state at once and then at most one per 100 ms, the last one winning', () => {
    const { clock, advance } = fakeClock();
    const sent: number[] = [];
    const c = new FollowCoalescer((s) => (sent.push(s.image), true), clock);
    c.push(state(1));
    expect(sent).toEqual([1]);
    for (let i = 2; i <= 20; i++) {
      advance(10);
      c.push(state(i));
    }
    // 190 ms of scrolling: one more at 100 ms (the state then), the rest waits
    expect(sent).toEqual([1, 10]);
    advance(10);
    expect(sent).toEqual([1, 10, 20]);
    advance(500);
    expect(sent).toEqual([1, 10, 20]);
  });

  it('keeps to 10 per second over a long burst', () => {
    const { clock, advance } = fakeClock();
    let count = 0;
    const c = new FollowCoalescer(() => (count++, true), clock);
    for (let i = 0; i < 1_000; i++) {
      c.push(state(i));
      advance(1);
    }
    expect(count).toBeLessThanOrEqual(11);
    expect(count).toBeGreaterThanOrEqual(9);
  });

  it('does not send the same view twice unless forced', () => {
    const { clock, advance } = fakeClock();
    const sent: number[] = [];
    const c = new FollowCoalescer((s) => (sent.push(s.image), true), clock);
    c.push(state(1));
    advance(200);
    c.push(state(1));
    expect(sent).toEqual([1]);
    c.push(state(1), true);
    expect(sent).toEqual([1, 1]);
  });

  it('a state that went back to the one sent while waiting is not sent', () => {
    const { clock, advance } = fakeClock();
    const sent: number[] = [];
    const c = new FollowCoalescer((s) => (sent.push(s.image), true), clock);
    c.push(state(1));
    c.push(state(2));
    c.push(state(1));
    advance(100);
    expect(sent).toEqual([1]);
  });

  it('a state the socket refused is sent again at the next push; reset drops the waiting one', () => {
    const { clock, advance, pending } = fakeClock();
    let open = false;
    const sent: number[] = [];
    const c = new FollowCoalescer((s) => (open ? (sent.push(s.image), true) : false), clock);
    c.push(state(1));
    expect(sent).toEqual([]);
    open = true;
    c.push(state(1));
    expect(sent).toEqual([1]);
    c.push(state(2));
    expect(pending()).toBe(1);
    c.reset();
    expect(pending()).toBe(0);
    advance(200);
    expect(sent).toEqual([1]);
  });
});
