// The session query (GET /api/session), shared by the access gate and every screen.
import { useQuery } from '@tanstack/react-query';
import type { SessionResponse } from '../../shared/api';
import { request } from './request';

export const sessionQueryKey = ['session'] as const;

export function useSession() {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => request<SessionResponse>('get', '/api/session', undefined, { signal }),
    // Never stale: the session changes only by this page's own acts (log in or out, the gate's
    // dialogs, the profile, deleting the account), and each of them fetches it again. A screen
    // that mounts reads it from the cache instead of asking the server once more.
    staleTime: Infinity,
  });
}
