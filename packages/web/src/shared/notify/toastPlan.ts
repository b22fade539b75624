import { MAX_NOTIFICATION_TOASTS } from '@yyp/contracts';

/** What the bell shows as toasts: spec 000 §9 "toast 10 s, at most 3 toasts". */

export interface ToastPlan {
  /** ids to open now, newest first */
  show: string[];
  /** ids of open toasts to close to make room */
  close: string[];
  /** the toasts open after this plan, newest first */
  open: string[];
}

/**
 * The unread notifications that arrived since the last look. `known` is null before the first
 * answer: what is there at sign-in was not new since a poll, so it shows no toast.
 */
export function newArrivals<T extends { id: string; readAt: string | null }>(
  known: ReadonlySet<string> | null,
  items: readonly T[],
): T[] {
  if (known === null) {
    return [];
  }
  return items.filter((item) => !known.has(item.id) && item.readAt === null);
}

/**
 * Opens toasts for `fresh` (newest first) while `open` (newest first) are still showing, so that
 * at most `max` show at once: the newest win and the oldest open ones close to make room.
 */
export function planToasts(
  open: readonly string[],
  fresh: readonly string[],
  max = MAX_NOTIFICATION_TOASTS,
): ToastPlan {
  const show = [...new Set(fresh)].slice(0, max);
  const others = open.filter((id) => !show.includes(id));
  const keep = others.slice(0, max - show.length);
  return { show, close: others.slice(keep.length), open: [...show, ...keep] };
}
