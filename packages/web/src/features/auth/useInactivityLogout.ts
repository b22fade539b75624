import { INACTIVITY_CHECK_MS, isInactive } from '@yyp/contracts';
import { useEffect, useRef } from 'react';

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'click', 'scroll', 'wheel', 'touchstart'] as const;

/** Shared between tabs, so activity in one tab keeps the others signed in too. */
export const LAST_ACTIVITY_KEY = 'yyp.lastActivity';
const SHARE_EVERY_MS = 5_000;

function readSharedActivity(): number {
  try {
    const value = Number(localStorage.getItem(LAST_ACTIVITY_KEY));
    return Number.isFinite(value) ? value : 0;
  } catch {
    return 0;
  }
}

function shareActivity(at: number): void {
  try {
    localStorage.setItem(LAST_ACTIVITY_KEY, String(at));
  } catch {
    // storage unavailable: this tab still tracks its own activity
  }
}

export interface InactivityOptions {
  /** The domain's maxInactiveMinutes; 0 disables the check (spec 000 §1 default). */
  maxInactiveMinutes: number;
  onInactive: () => void;
  /** How often to check; spec §9 says every 60 s. Tests pass their own. */
  intervalMs?: number;
  enabled?: boolean;
}

/**
 * Inactivity logout (spec 000 §3): user activity (mouse, keys, clicks, scrolling) moves the last
 * activity time; every `intervalMs` the hook asks isInactive and calls onInactive once when true.
 */
export function useInactivityLogout({
  maxInactiveMinutes,
  onInactive,
  intervalMs = INACTIVITY_CHECK_MS,
  enabled = true,
}: InactivityOptions): void {
  const onInactiveRef = useRef(onInactive);
  useEffect(() => {
    onInactiveRef.current = onInactive;
  }, [onInactive]);

  useEffect(() => {
    if (!enabled || maxInactiveMinutes <= 0) {
      return undefined;
    }
    let lastActivity = Date.now();
    let lastShared = 0;
    shareActivity(lastActivity);

    function handleActivity(): void {
      lastActivity = Date.now();
      if (lastActivity - lastShared >= SHARE_EVERY_MS) {
        lastShared = lastActivity;
        shareActivity(lastActivity);
      }
    }

    for (const event of ACTIVITY_EVENTS) {
      window.addEventListener(event, handleActivity, { passive: true, capture: true });
    }
    const timer = window.setInterval(() => {
      const last = Math.max(lastActivity, readSharedActivity());
      if (isInactive(last, Date.now(), maxInactiveMinutes)) {
        window.clearInterval(timer);
        onInactiveRef.current();
      }
    }, intervalMs);

    return () => {
      window.clearInterval(timer);
      for (const event of ACTIVITY_EVENTS) {
        window.removeEventListener(event, handleActivity, { capture: true });
      }
    };
  }, [enabled, maxInactiveMinutes, intervalMs]);
}
