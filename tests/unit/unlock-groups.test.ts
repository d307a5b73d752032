// The unread notifications at login, grouped into dialogs: several level_unlocked ones share one
// dialog where the first of them stands; everything else keeps a dialog of its own, in order.
import { describe, expect, it } from 'vitest';
import type { UserNotification } from '../../shared/api';
import { groupUnlocks } from '../../src/app/features/notifications/unlockGroups';

function notification(id: number, type: UserNotification['type']): UserNotification {
  return { id, type } as UserNotification;
}

const ids = (groups: UserNotification[][]) => groups.map((group) => group.map((entry) => entry.id));

describe('groupUnlocks', () => {
  it('lists two or more unlocks in one dialog at the place of the first', () => {
    const queue = [
      notification(1, 'captain_message'),
      notification(2, 'level_unlocked'),
      notification(3, 'no_group'),
      notification(4, 'level_unlocked'),
      notification(5, 'level_unlocked'),
    ];
    expect(ids(groupUnlocks(queue))).toEqual([[1], [2, 4, 5], [3]]);
  });

  it('keeps a single unlock, and every other notification, a dialog of its own', () => {
    const queue = [notification(1, 'level_unlocked'), notification(2, 'captain_message')];
    expect(ids(groupUnlocks(queue))).toEqual([[1], [2]]);
    expect(groupUnlocks([])).toEqual([]);
  });
});
