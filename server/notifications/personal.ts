// Personal notifications: written by other parts of the server inside their own transaction, so
// that the notification exists exactly when the change it announces does (ARCHITECTURE.md, the
// game model: unlocking a level creates a level_unlocked notification for that user).
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, NotificationsTable } from '../db/schema';

export interface UnlockedLevel {
  key: string;
  name: { en: string; ja: string };
}

/**
 * The level_unlocked notification's row (title and message in both locales). The next quest goes
 * to the level unlocked by itself, so the message says where the cruise goes on, not to choose.
 */
export function levelUnlockedNotification(userId: number, level: UnlockedLevel): Insertable<NotificationsTable> {
  return {
    user_id: userId,
    type: 'level_unlocked',
    title: JSON.stringify({
      en: `New level unlocked: ${level.name.en}`,
      ja: `新しいレベルが解放されました: ${level.name.ja}`,
    }),
    message: JSON.stringify({
      en: `You can now sail to ${level.name.en}: your next galaxies are there. Press Next galaxy to sail on.`,
      ja: `${level.name.ja}へ航海できるようになりました。次の銀河はそこにあります。「次の銀河」を押して航海を続けましょう。`,
    }),
    html: false,
    // Both locales are written, so no fallback is needed.
    locale_fallback: false,
    custom_component: null,
  };
}

export async function createLevelUnlockedNotification(
  trx: Kysely<Database> | Transaction<Database>,
  userId: number,
  level: UnlockedLevel,
): Promise<void> {
  await trx.insertInto('notifications').values(levelUnlockedNotification(userId, level)).execute();
}
