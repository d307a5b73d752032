// The session query (GET /api/session), shared by the access gate and every screen.
import { hashKey, useQuery, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { SessionResponse } from '../../../shared/api';
import { forgetLastSeen, keepLastSeenAgain, lastSeenMeta } from './lastSeen';
import { request } from './request';

export const sessionQueryKey = ['session'] as const;

/**
 * This page now holds `session`, a new account's (a login, a mail link's button): nothing cached
 * for the account before may show for it (`keep`: a query of no account, still shown meanwhile),
 * the gate reads the new session at once, the page takes the account's language, and the session
 * is fetched again beside the navigation that follows (the query may have no observer on the
 * screen left, hence 'all'), not before it.
 */
export async function takeSession(
  queryClient: QueryClient,
  i18n: I18n,
  session: SessionResponse,
  { keep }: { keep?: QueryKey } = {},
): Promise<void> {
  // Nor may the offline start's answers kept for it (api/lastSeen.ts).
  await forgetLastSeen();
  keepLastSeenAgain();
  const kept = keep === undefined ? null : hashKey(keep);
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] && query.queryHash !== kept,
  });
  queryClient.setQueryData(sessionQueryKey, session);
  if (session.current_user) await i18n.changeLanguage(session.current_user.locale);
  void queryClient.invalidateQueries({ queryKey: sessionQueryKey, refetchType: 'all' });
}

export function useSession() {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => request<SessionResponse>('get', '/api/session', undefined, { signal }),
    meta: lastSeenMeta('/api/session'),
    // Never stale: the session changes only by this page's own acts (log in or out, the gate's
    // dialogs, the profile, deleting the account), and each of them fetches it again. A screen
    // that mounts reads it from the cache instead of asking the server once more.
    staleTime: Infinity,
  });
}
