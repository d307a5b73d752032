// The volunteer's part of the offline start: the answers of the calls the main screen opens
// with (the session, the courses, the levels, the current quest: isOfflineStartCall), kept in the
// personal cache (Cache Storage) as this page last saw them, so that when such a GET fails for
// want of a network, request() answers it from there (lastSeenAnswer). "As last seen" includes
// what the page changed itself: the quest with the answers given since it was fetched (the
// cruise's useAnswerSubmission writes them into the query's data). The service worker plays no
// part in it: it keeps the shell and the sky, and never an /api/ answer.
//
// A query opts in by naming its URL in its meta (`lastSeenMeta`); every successful fetch or
// setQueryData of it is written. Only while a volunteer is logged in; the cache is deleted when
// the session ends (logout, a deleted account) or another account takes the page, and writes are
// queued behind the deletion, so that nothing of a volunteer is left in the cache after logout.
import type { QueryClient } from '@tanstack/react-query';
import { isOfflineStartCall, PERSONAL_CACHE } from '../../service-worker/caches';
import { getUrl, type Payload } from './request';

/** The meta of a query whose answer the offline start needs: the GET's URL, as request() sends it. */
export function lastSeenMeta(path: string, payload?: Payload): { lastSeenUrl: string } {
  return { lastSeenUrl: getUrl(path, payload) };
}

/** Cache Storage exists in secure contexts only (https, localhost). */
const available = () => typeof caches !== 'undefined';

/** The answer the page last saw of an offline start's GET of `url`, or undefined. */
export async function lastSeenAnswer(url: string): Promise<unknown> {
  if (!available() || !isOfflineStartCall(new URL(url, location.href).pathname)) return undefined;
  // caches.match with a cache name opens no cache: none is made again after a logout.
  const response = await caches.match(url, { cacheName: PERSONAL_CACHE });
  return response ? ((await response.json()) as unknown) : undefined;
}

let queue: Promise<unknown> = Promise.resolve();
function serially(work: () => Promise<unknown>): Promise<void> {
  queue = queue.then(work).catch(() => undefined);
  return queue.then(() => undefined);
}

/** Set from a logout until another account's session is taken: no write, whatever the queries do. */
let forgotten = false;

/**
 * Deletes the personal cache (after any write already queued) and writes nothing more until
 * `keepLastSeenAgain` (a new session taken).
 */
export function forgetLastSeen(): Promise<void> {
  forgotten = true;
  if (!available()) return Promise.resolve();
  return serially(() => caches.delete(PERSONAL_CACHE));
}

/** A volunteer's session was taken (a login, a mail link): their answers are written again. */
export function keepLastSeenAgain(): void {
  forgotten = false;
}

/**
 * Writes the lastSeen queries' data into the personal cache as they change, while `signedIn()`;
 * returns the unsubscribe.
 */
export function keepLastSeen(queryClient: QueryClient, signedIn: () => boolean): () => void {
  if (!available()) return () => {};
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const url = event.query.meta?.lastSeenUrl;
    if (typeof url !== 'string') return;
    if (forgotten || !signedIn()) return;
    const body = JSON.stringify(event.query.state.data);
    void serially(async () => {
      // The session may have ended while this write waited.
      if (forgotten || !signedIn()) return;
      const cache = await caches.open(PERSONAL_CACHE);
      await cache.put(url, new Response(body, { headers: { 'content-type': 'application/json' } }));
    });
  });
}
