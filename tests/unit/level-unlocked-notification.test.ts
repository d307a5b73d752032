// The level_unlocked notification (server/notifications/personal.ts) says where the cruise goes on:
// the next quest sails to the level unlocked by itself, and nothing can be chosen on the map.
import { describe, expect, it } from 'vitest';
import { levelUnlockedNotification } from '../../server/notifications/personal';

describe('the level_unlocked notification', () => {
  it('tells the volunteer to sail on with Next galaxy, in both languages, not to choose on the map', () => {
    const row = levelUnlockedNotification(7, { key: 'draco', name: { en: 'Draco Island', ja: 'りゅう座島' } });
    const message = JSON.parse(row.message as string) as Record<string, string>;
    expect(message.en).toBe(
      'You can now sail to Draco Island: your next galaxies are there. Press Next galaxy to sail on.',
    );
    expect(message.ja).toBe(
      'りゅう座島へ航海できるようになりました。次の銀河はそこにあります。「次の銀河」を押して航海を続けましょう。',
    );
    expect(`${message.en}${message.ja}`).not.toMatch(/map|地図/);
  });
});
