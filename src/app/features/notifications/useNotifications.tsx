// The notifications list of the header (application-spec §2, §4, §7, §9): GET
// /api/notifications?include_old=true (read and unread, newest first), refetched every 60 s (5 s
// in developer mode). A level_unlocked notification that arrives unread refreshes the levels, so
// that the map and the stage name follow without a reload; reading one opens it and marks it
// read on OK (POST /api/notifications/{id}/read).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { UserNotification } from '../../../../shared/api';
import { request } from '../../api/request';
import { DialogDismissed, useDialogs } from '../../components/dialogs';
import { NOTIFICATION_REFETCH_MS } from '../../developerMode';
import { NotificationDialog } from './NotificationDialog';
import { notificationsQueryKey } from './UnreadNotifications';

export const notificationListQueryKey = [...notificationsQueryKey, 'list'] as const;

export function useNotificationList() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: notificationListQueryKey,
    queryFn: ({ signal }) =>
      request<UserNotification[]>('get', '/api/notifications', { include_old: true }, { signal, background: true }),
    refetchInterval: NOTIFICATION_REFETCH_MS,
  });
  // Unread level_unlocked notifications seen so far: the first list only records them (the
  // levels were fetched with the page), a later one with a new id refreshes the levels.
  const seen = useRef<Set<number> | null>(null);
  useEffect(() => {
    if (!query.data) return;
    const unlocked = query.data.filter((entry) => entry.type === 'level_unlocked' && !entry.read);
    const fresh = seen.current ? unlocked.filter((entry) => !seen.current!.has(entry.id)) : [];
    seen.current = new Set([...(seen.current ?? []), ...unlocked.map((entry) => entry.id)]);
    if (fresh.length > 0) void queryClient.invalidateQueries({ queryKey: ['levels'] });
  }, [query.data, queryClient]);
  return query;
}

/** Opens one notification; OK marks it read and refreshes the list (and the levels if unlocked). */
export function useReadNotification() {
  const dialogs = useDialogs();
  const queryClient = useQueryClient();
  return useCallback(
    async (notification: UserNotification) => {
      try {
        await dialogs.open(<NotificationDialog notification={notification} index={0} count={1} />);
      } catch (error) {
        if (error instanceof DialogDismissed) return;
        throw error;
      }
      if (notification.read) return;
      await request('post', '/api/notifications/{id}/read', { id: notification.id });
      if (notification.type === 'level_unlocked') await queryClient.invalidateQueries({ queryKey: ['levels'] });
      await queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
    },
    [dialogs, queryClient],
  );
}
