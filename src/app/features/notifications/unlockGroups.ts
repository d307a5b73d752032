// How the unread notifications at login are grouped into dialogs (UnreadNotifications).
import type { UserNotification } from '../../../../shared/api';

/**
 * The dialogs of the unread queue, oldest first: one a notification, except that the
 * level_unlocked ones, when there are two or more, share one at the place of the first.
 */
export function groupUnlocks(queue: readonly UserNotification[]): UserNotification[][] {
  const unlocks = queue.filter((notification) => notification.type === 'level_unlocked');
  if (unlocks.length < 2) return queue.map((notification) => [notification]);
  const groups: UserNotification[][] = [];
  for (const notification of queue) {
    if (notification.type !== 'level_unlocked') groups.push([notification]);
    else if (notification === unlocks[0]) groups.push(unlocks);
  }
  return groups;
}
