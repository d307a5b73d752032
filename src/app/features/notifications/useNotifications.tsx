// Reading a notification of the header's list (application-spec §4, §7; the list itself is
// api/notifications.ts): it opens, and OK marks it read (POST /api/notifications/{id}/read) and
// refreshes the list, and the levels when it is a level_unlocked one.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { UserNotification } from '../../../../shared/api';
import { notificationsQueryKey } from '../../api/notifications';
import { request } from '../../api/request';
import { DialogDismissed, useDialogs } from '../../components/dialogs';
import { NotificationDialog } from './NotificationDialog';

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
