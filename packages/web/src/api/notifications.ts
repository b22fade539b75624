import { NOTIFICATION_LIST_LIMIT, type NotificationList, type NotificationStatus } from '@yyp/contracts';
import { apiRequest } from './client';

/** The signed-in user's own notifications (the bell in the navbar). */

export function fetchNotificationStatus(signal?: AbortSignal): Promise<NotificationStatus> {
  return apiRequest<NotificationStatus>('notifications/status', { signal });
}

export function fetchNotifications(signal?: AbortSignal, limit = NOTIFICATION_LIST_LIMIT): Promise<NotificationList> {
  return apiRequest<NotificationList>('notifications', { query: { limit }, signal });
}

export function markNotificationRead(notificationId: string): Promise<void> {
  return apiRequest<void>(`notifications/${encodeURIComponent(notificationId)}/read`, { method: 'POST' });
}

export function markAllNotificationsRead(): Promise<void> {
  return apiRequest<void>('notifications/read-all', { method: 'POST' });
}
