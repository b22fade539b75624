// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { INACTIVITY_CHECK_MS } from '@yyp/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useInactivityLogout } from './useInactivityLogout';

const MINUTE = 60_000;

describe('useInactivityLogout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('logs out at the first check after maxInactiveMinutes of silence, once', () => {
    const onInactive = vi.fn();
    renderHook(() => useInactivityLogout({ maxInactiveMinutes: 2, onInactive }));
    vi.advanceTimersByTime(2 * MINUTE - 1);
    expect(onInactive).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onInactive).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * MINUTE);
    expect(onInactive).toHaveBeenCalledTimes(1);
  });

  it('checks only every interval, by default every 60 s', () => {
    const onInactive = vi.fn();
    renderHook(() => useInactivityLogout({ maxInactiveMinutes: 1, onInactive, intervalMs: 5 * MINUTE }));
    vi.advanceTimersByTime(5 * MINUTE - 1);
    expect(onInactive).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onInactive).toHaveBeenCalledTimes(1);
    expect(INACTIVITY_CHECK_MS).toBe(MINUTE);
  });

  it.each(['mousemove', 'keydown', 'click', 'scroll'] as const)('%s counts as activity', (type) => {
    const onInactive = vi.fn();
    renderHook(() => useInactivityLogout({ maxInactiveMinutes: 2, onInactive }));
    vi.advanceTimersByTime(90_000);
    // Dispatched on an element inside the page: the hook must catch it on its way through window.
    document.body.dispatchEvent(new Event(type, { bubbles: type !== 'scroll' }));
    vi.advanceTimersByTime(90_000); // 3 min since start, 1.5 min since activity
    expect(onInactive).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60_000);
    expect(onInactive).toHaveBeenCalledTimes(1);
  });

  it('never fires when the domain sets no limit (0)', () => {
    const onInactive = vi.fn();
    renderHook(() => useInactivityLogout({ maxInactiveMinutes: 0, onInactive }));
    vi.advanceTimersByTime(24 * 60 * MINUTE);
    expect(onInactive).not.toHaveBeenCalled();
  });

  it('stops checking when unmounted (signed out)', () => {
    const onInactive = vi.fn();
    const { unmount } = renderHook(() => useInactivityLogout({ maxInactiveMinutes: 1, onInactive }));
    unmount();
    vi.advanceTimersByTime(10 * MINUTE);
    expect(onInactive).not.toHaveBeenCalled();
  });

  it('counts activity shared by another tab', () => {
    const onInactive = vi.fn();
    renderHook(() => useInactivityLogout({ maxInactiveMinutes: 2, onInactive }));
    vi.advanceTimersByTime(90_000);
    localStorage.setItem('yyp.lastActivity', String(Date.now()));
    vi.advanceTimersByTime(90_000);
    expect(onInactive).not.toHaveBeenCalled();
  });
});
