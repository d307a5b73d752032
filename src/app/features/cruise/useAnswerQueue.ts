// The volunteer's answer queue for the page: one AnswerQueue per logged-in volunteer, backed by
// IndexedDB, retried at once when the browser comes back online, stopped at log-out.
import { useEffect, useSyncExternalStore } from 'react';
import i18next from 'i18next';
import type { NewRecordResponse } from '../../../../shared/api';
import { AnswerQueue, PostError, type PendingAnswer } from './answerQueue';
import { indexedDbAnswerStore, postAnswer } from './answerStore';

let current: AnswerQueue | null = null;
let currentUser: number | null = null;

type SentListener = (entry: PendingAnswer, response: NewRecordResponse) => void;
const sentListeners = new Set<SentListener>();

/** Calls `listener` with each answer the server took and its new-record response; returns the unsubscribe. */
export function onAnswerSent(listener: SentListener): () => void {
  sentListeners.add(listener);
  return () => sentListeners.delete(listener);
}

function queueFor(userId: number): AnswerQueue {
  if (current && currentUser === userId) return current;
  current?.stop();
  currentUser = userId;
  current = new AnswerQueue({
    store: indexedDbAnswerStore(),
    post: postAnswer,
    userId,
    onSent: (entry, response) => {
      for (const listener of sentListeners) listener(entry, response);
    },
    onRejected: (_entry, error) =>
      window.alert(i18next.t('cruise.rejected', { status: error instanceof PostError ? error.status : '?' })),
  });
  void current.start();
  return current;
}

const NONE: readonly PendingAnswer[] = [];

/** The queue of `userId` (null while no one is logged in) and its pending answers. */
export function useAnswerQueue(userId: number | null): {
  queue: AnswerQueue | null;
  pending: readonly PendingAnswer[];
} {
  const queue = userId === null ? null : queueFor(userId);
  const pending = useSyncExternalStore(
    (listener) => queue?.subscribe(listener) ?? (() => {}),
    () => queue?.pending() ?? NONE,
  );
  useEffect(() => {
    if (!queue) return;
    const online = () => queue.retryNow();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [queue]);
  return { queue, pending };
}
