// The volunteer's notifications (application-spec §2, §4, §7, §9): the unread ones shown at login
// (GET /api/notifications), and the header's list (GET /api/notifications?include_old=true: read
// and unread, newest first), refetched every 60 s (5 s in developer mode). A level_unlocked
// notification that arrives unread refreshes the levels, so that the map and the stage name
// follow without a reload.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { UserNotification } from '../../../shared/api';
import { NOTIFICATION_REFETCH_MS } from '../developerMode';
import { request } from './request';

export const notificationsQueryKey = ['notifications'] as const;

/**
 * The unread notifications, as shown at login. The login asks for them itself, beside the
 * recommended course's quest (LoginPage), so that they are in when the main screen mounts rather
 * than asked for only then, behind its code and its first frames.
 */
export const unreadNotificationsQuery = {
  queryKey: [...notificationsQueryKey, 'unread'] as const,
  queryFn: () => request<UserNotification[]>('get', '/api/notifications'),
  staleTime: Infinity,
};

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
