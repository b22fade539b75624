import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  fetchNotificationStatus,
  fetchNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from '../../api/notifications';
import { queryKeys } from '../../api/queryClient';
import { pollInterval } from '../../shared/notify/pollInterval';

/**
 * The bell's data. Every 30 s (spec 000 §9) it asks for the unread count and the newest id, which
 * carry no patient data; the list itself (patient names, audited on the server) is fetched when
 * that changes or the bell is opened.
 */
export function useNotifications() {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: queryKeys.notificationStatus,
    queryFn: ({ signal }) => fetchNotificationStatus(signal),
    refetchInterval: (query) => pollInterval(query.state.error),
    staleTime: 0,
  });
  // Keyed by the status: a new notification or a changed count fetches the list again.
  const latestId = status.data?.latestId ?? null;
  const unread = status.data?.unread ?? 0;
  const list = useQuery({
    queryKey: [...queryKeys.notificationList, latestId, unread],
    queryFn: ({ signal }) => fetchNotifications(signal),
    enabled: status.isSuccess,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });

  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
  const markRead = useMutation({ mutationFn: markNotificationRead, onSettled: invalidate });
  const markAllRead = useMutation({ mutationFn: markAllNotificationsRead, onSettled: invalidate });

  return {
    items: list.data?.items,
    /** whether a new toast chimes (the user's notification settings) */
    sound: list.data?.sound === true,
    unread,
    listError: list.error,
    isLoading: list.isPending && status.isSuccess,
    refresh: () => list.refetch(),
    markRead,
    markAllRead,
  };
}
