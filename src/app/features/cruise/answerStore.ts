// The answer queue's store in the browser: one IndexedDB object store keyed by the entry's key
// (answerQueue.ts), so that a queued answer survives a reload, a crash or a closed tab.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Answer, NewRecordResponse } from '../../../../shared/api';
import { fillPath } from '../../api/request';
import { PostError, type AnswerStore, type PendingAnswer, type PostAnswer } from './answerQueue';

interface AnswerDatabase extends DBSchema {
  answers: { key: string; value: PendingAnswer };
}

const DATABASE = 'galaxy-cruise-answers';
const STORE = 'answers';

export function indexedDbAnswerStore(): AnswerStore {
  let database: Promise<IDBPDatabase<AnswerDatabase>> | null = null;
  const open = () =>
    (database ??= openDB<AnswerDatabase>(DATABASE, 1, {
      upgrade(db) {
        db.createObjectStore(STORE, { keyPath: 'key' });
      },
    }));
  return {
    all: async () => (await open()).getAll(STORE),
    put: async (entry) => {
      await (await open()).put(STORE, entry);
    },
    delete: async (key) => (await open()).delete(STORE, key),
  };
}

/**
 * POST /api/quests/{quest_id}/answers (application-spec §7). It bypasses request()'s 'Please
 * Reload.' alert: the queue retries a failure silently and reports only one it gives up on.
 */
export const postAnswer: PostAnswer = async (questId: number, answer: Answer) => {
  const { path } = fillPath('/api/quests/{quest_id}/answers', { quest_id: questId });
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(answer),
      credentials: 'same-origin',
    });
  } catch {
    throw new PostError(0);
  }
  const text = await response.text().catch(() => '');
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text.
  }
  if (!response.ok) throw new PostError(response.status, data);
  return data as NewRecordResponse;
};
