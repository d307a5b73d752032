// The unread notifications shown at login (application-spec §4): once the volunteer is through
// the access gate, the unread, currently valid notifications (GET /api/notifications, in the
// user's language or English where the notification falls back to it) open one by one, oldest
// first; OK marks one read (POST /api/notifications/{id}/read) and opens the next. Two or more
// level_unlocked ones show as one list (UnlockedLevelsDialog) where the first of them stands,
// and its OK marks each of them read. A
// level_unlocked one refreshes the levels. Dismissing one (Escape) leaves it and the rest unread
// for the next visit. The dialog's code is loaded only when a notification is waiting, so that
// the login screen's first download does not carry it.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { notificationsQueryKey, unreadNotificationsQuery } from '../../api/notifications';
import { RequestError, request } from '../../api/request';
import { useSession } from '../../api/session';
import { DialogDismissed, useDialogs } from '../../components/dialogs';
import { groupUnlocks } from './unlockGroups';

export function UnreadNotifications() {
  const session = useSession();
  const dialogs = useDialogs();
  const queryClient = useQueryClient();
  const userId = session.data?.current_user?.id;
  // The user whose notifications were shown in this page load: once per login, even when the
  // effect runs twice.
  const shownFor = useRef<number | null>(null);

  useEffect(() => {
    if (userId === undefined || shownFor.current === userId) return;
    shownFor.current = userId;
    void (async () => {
      const unread = await queryClient.fetchQuery(unreadNotificationsQuery);
      const queue = groupUnlocks([...unread].reverse());
      if (queue.length === 0) return;
      // The dialogs and the HTML sanitiser load only when there is something to show.
      const [{ NotificationDialog }, { UnlockedLevelsDialog }] = await Promise.all([
        import('./NotificationDialog'),
        import('./UnlockedLevelsDialog'),
      ]);
      for (const [index, group] of queue.entries()) {
        try {
          await dialogs.open(
            group.length === 1 ? (
              <NotificationDialog notification={group[0]!} index={index} count={queue.length} />
            ) : (
              <UnlockedLevelsDialog notifications={group} index={index} count={queue.length} />
            ),
            // They come on their own at login: after any dialog already open, not over it.
            { queued: true },
          );
        } catch (error) {
          if (error instanceof DialogDismissed) return;
          throw error;
        }
        for (const notification of group)
          await request('post', '/api/notifications/{id}/read', { id: notification.id });
        if (group.some((notification) => notification.type === 'level_unlocked'))
          await queryClient.invalidateQueries({ queryKey: ['levels'] });
      }
      await queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
    })().catch((error: unknown) => {
      // A failed request has already raised the §8 alert; anything else is a bug to see.
      if (!(error instanceof RequestError)) console.error(error);
    });
  }, [userId, dialogs, queryClient]);

  return null;
}
