import { CONSULTATION_POLL_MS, CONSULTATION_STATUS_VALUES, type ConsultationQuery } from '@yyp/contracts';
import { isApiError } from '../../api/errors';

/** Spec 001 §7 "Background polling": the consultation query the poll sends every 60 s. */
export const CONSULTATION_POLL_BODY = {
  limit: 5,
  skip: 0,
  filter: { status: { equal: CONSULTATION_STATUS_VALUES.pending } },
} as const satisfies ConsultationQuery;

/** Spec 001 §4: polling stops when a call returns HTTP 401. */
export function consultationPollInterval(error: unknown, intervalMs = CONSULTATION_POLL_MS): number | false {
  return isApiError(error) && error.status === 401 ? false : intervalMs;
}

/** The pending consultations seen in this page's life, per signed-in user: each toasts once. */
const seenByUser = new Map<string, Set<string>>();

function seenOf(user: string): Set<string> {
  let seen = seenByUser.get(user);
  if (!seen) {
    seen = new Set();
    seenByUser.set(user, seen);
  }
  return seen;
}

/** The ids not seen before (in answer order), now remembered as seen. */
export function takeUnseen<T extends { id: string }>(user: string, items: readonly T[]): T[] {
  const seen = seenOf(user);
  const fresh = items.filter((item) => !seen.has(item.id));
  fresh.forEach((item) => seen.add(item.id));
  return fresh;
}

/** The caller's own request (made in this page) is no news to the caller. */
export function markConsultationSeen(user: string, id: string): void {
  seenOf(user).add(id);
}

/** Test support: forget what was seen. */
export function resetSeenConsultations(): void {
  seenByUser.clear();
}

/** A short two-tone chime through the Web Audio API (no file to load); silent where there is none. */
export function playChime(): void {
  const Context = typeof window === 'undefined' ? undefined : window.AudioContext;
  if (!Context) return;
  try {
    const ctx = new Context();
    const start = ctx.currentTime;
    [880, 660].forEach((frequency, i) => {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, start + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.001, start + i * 0.18 + 0.16);
      oscillator.connect(gain);
      gain.connect(ctx.destination);
      oscillator.start(start + i * 0.18);
      oscillator.stop(start + i * 0.18 + 0.17);
    });
    setTimeout(() => void ctx.close(), 1000);
  } catch {
    // a browser that refuses audio before a gesture: the toast still shows
  }
}
