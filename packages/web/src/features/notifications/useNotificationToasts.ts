import type { NotificationItem } from '@yyp/contracts';
import { NOTIFICATION_TOAST_SECONDS } from '@yyp/contracts';
import { notification as antNotification } from 'antd';
import { useEffect, useRef, type ReactNode } from 'react';
import { playNotificationChime } from '../../shared/notify/chime';
import { newArrivals, planToasts } from '../../shared/notify/toastPlan';

const toastKey = (id: string) => `notification:${id}`;

/**
 * A toast for each notification that arrived since the last poll: 10 s, at most 3 at once
 * (spec 000 §9). Clicking one opens it like the entry in the bell. Render the answered holder:
 * the toasts sit below the navbar, so they never cover the bell. A notification the server answers
 * quiet (a kind the user muted in /settings/notifications) shows in the bell only; with `sound` on
 * (the user's setting, answered with the list) new toasts chime once.
 */
export function useNotificationToasts(
  items: NotificationItem[] | undefined,
  render: (item: NotificationItem) => { title: ReactNode; description: ReactNode },
  onOpen: (item: NotificationItem) => void,
  sound = false,
) {
  const [notification, holder] = antNotification.useNotification({ top: 64, stack: false });
  const known = useRef<Set<string> | null>(null);
  /** ids of the toasts showing, newest first; a toast leaves it when it closes (10 s or a click) */
  const open = useRef<string[]>([]);
  const renderRef = useRef(render);
  const openRef = useRef(onOpen);
  const soundRef = useRef(sound);
  useEffect(() => {
    renderRef.current = render;
    openRef.current = onOpen;
    soundRef.current = sound;
  });

  useEffect(() => {
    if (!items) {
      return;
    }
    const fresh = newArrivals(known.current, items).filter((item) => item.quiet !== true);
    known.current = new Set([...(known.current ?? []), ...items.map((item) => item.id)]);
    if (fresh.length === 0) {
      return;
    }
    const plan = planToasts(
      open.current,
      fresh.map((item) => item.id),
    );
    open.current = plan.open;
    if (soundRef.current && plan.show.length > 0) {
      playNotificationChime();
    }
    for (const id of plan.close) {
      notification.destroy(toastKey(id));
    }
    // Oldest first, so the newest ends up on top.
    for (const id of [...plan.show].reverse()) {
      const item = fresh.find((f) => f.id === id);
      if (!item) {
        continue;
      }
      const key = toastKey(id);
      notification.info({
        key,
        ...renderRef.current(item),
        duration: NOTIFICATION_TOAST_SECONDS,
        pauseOnHover: false,
        placement: 'topRight',
        className: 'yyp-notification-toast',
        onClose: () => {
          open.current = open.current.filter((shown) => shown !== id);
        },
        onClick: () => {
          notification.destroy(key);
          openRef.current(item);
        },
      });
    }
  }, [items, notification]);

  useEffect(
    () => () => {
      for (const id of open.current) {
        notification.destroy(toastKey(id));
      }
    },
    [notification],
  );
  return holder;
}
