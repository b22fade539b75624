import {
  NOTIFICATION_LIST_LIMIT,
  notificationCalls,
  type NotificationList,
  type NotificationStatus,
} from '@yyp/contracts';
import { callApi } from './call';

/** The signed-in user's own notifications (the bell in the navbar; notificationCalls). */

export function fetchNotificationStatus(signal?: AbortSignal): Promise<NotificationStatus> {
  return callApi(notificationCalls.status, {}, { signal });
}

export function fetchNotifications(signal?: AbortSignal, limit = NOTIFICATION_LIST_LIMIT): Promise<NotificationList> {
  return callApi(notificationCalls.list, { query: { limit } }, { signal });
}

export async function markNotificationRead(notificationId: string): Promise<void> {
  await callApi(notificationCalls.read, { params: { notificationId } });
}

export async function markAllNotificationsRead(): Promise<void> {
  await callApi(notificationCalls.readAll, {});
}
