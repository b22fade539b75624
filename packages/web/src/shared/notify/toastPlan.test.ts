import { describe, expect, it } from 'vitest';
import { newArrivals, planToasts } from './toastPlan';

const item = (id: string, readAt: string | null = null) => ({ id, readAt });

describe('newArrivals', () => {
  it('shows nothing for what is there at the first answer', () => {
    expect(newArrivals(null, [item('a'), item('b')])).toEqual([]);
  });

  it('answers the unread notifications not seen before, newest first as listed', () => {
    const known = new Set(['a', 'b']);
    expect(newArrivals(known, [item('d'), item('c'), item('e', '2026-11-22T08:00:00Z'), item('a')])).toEqual([
      item('d'),
      item('c'),
    ]);
  });
});

describe('planToasts', () => {
  it('opens a toast for a notification', () => {
    expect(planToasts([], ['a'])).toEqual({ show: ['a'], close: [], open: ['a'] });
  });

  it('opens at most 3 at once: the newest 3 of a larger arrival', () => {
    expect(planToasts([], ['e', 'd', 'c', 'b', 'a'])).toEqual({
      show: ['e', 'd', 'c'],
      close: [],
      open: ['e', 'd', 'c'],
    });
  });

  it('keeps open toasts while there is room', () => {
    expect(planToasts(['b'], ['c'])).toEqual({ show: ['c'], close: [], open: ['c', 'b'] });
  });

  it('closes the oldest open toasts to make room for new ones', () => {
    expect(planToasts(['c', 'b', 'a'], ['e', 'd'])).toEqual({
      show: ['e', 'd'],
      close: ['b', 'a'],
      open: ['e', 'd', 'c'],
    });
    expect(planToasts(['c', 'b', 'a'], ['g', 'f', 'e', 'd'])).toEqual({
      show: ['g', 'f', 'e'],
      close: ['c', 'b', 'a'],
      open: ['g', 'f', 'e'],
    });
  });

  it('never holds more than 3 however arrivals interleave with toasts closing', () => {
    let open: string[] = [];
    for (let round = 0; round < 30; round++) {
      const fresh = Array.from({ length: (round % 5) + 1 }, (_, i) => `n${round}-${i}`);
      const plan = planToasts(open, fresh);
      // What shows after the plan: what was open, minus what it closes, plus what it opens.
      const showing = [...open.filter((id) => !plan.close.includes(id)), ...plan.show];
      expect(showing.length).toBeLessThanOrEqual(3);
      expect(new Set(showing)).toEqual(new Set(plan.open));
      // Some toasts time out between polls.
      open = plan.open.filter((_, i) => (round + i) % 3 !== 0);
    }
  });
});
