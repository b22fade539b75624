import { describe, expect, it } from 'vitest';
import {
  LIVE_RECONNECT_MAX_MS,
  LIVE_RECONNECT_MIN_MS,
  RecentIds,
  liveReconnectDelay,
  liveSocketUrl,
} from './liveBackoff';

describe('liveReconnectDelay', () => {
  it('doubles from the minimum, jittered within the upper half of each step', () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const ceiling = LIVE_RECONNECT_MIN_MS * 2 ** attempt;
      expect(liveReconnectDelay(attempt, () => 0)).toBe(ceiling / 2);
      expect(liveReconnectDelay(attempt, () => 1)).toBe(ceiling);
    }
  });

  it('never waits longer than the maximum, however many attempts failed', () => {
    expect(liveReconnectDelay(50, () => 1)).toBe(LIVE_RECONNECT_MAX_MS);
    expect(liveReconnectDelay(1_000_000, () => 0.5)).toBeLessThanOrEqual(LIVE_RECONNECT_MAX_MS);
  });

  it('spreads clients dropped at once over the step (no thundering herd)', () => {
    const delays = new Set([0, 0.25, 0.5, 0.75, 0.99].map((r) => liveReconnectDelay(3, () => r)));
    expect(delays.size).toBe(5);
  });
});

describe('liveSocketUrl', () => {
  it('uses wss beside https and ws beside http, on the page host', () => {
    expect(liveSocketUrl({ protocol: 'https:', host: 'pacs.example:8443' }, '/yyp/api/v1/live')).toBe(
      'wss://pacs.example:8443/yyp/api/v1/live',
    );
    expect(liveSocketUrl({ protocol: 'http:', host: 'localhost:5173' }, '/yyp/api/v1/live')).toBe(
      'ws://localhost:5173/yyp/api/v1/live',
    );
  });
});

describe('RecentIds', () => {
  it('tells a repeat from a new id and stays bounded', () => {
    const ids = new RecentIds(3);
    expect(ids.add('a')).toBe(true);
    expect(ids.add('a')).toBe(false);
    for (const id of ['b', 'c', 'd', 'e']) ids.add(id);
    expect(ids.count).toBe(3);
    // the oldest went first
    expect(ids.add('a')).toBe(true);
    expect(ids.add('e')).toBe(false);
  });
});
