// The session query (GET /api/session), shared by the access gate and every screen.
import { useQuery } from '@tanstack/react-query';
import type { SessionResponse } from '../../shared/api';
import { request } from './request';

export const sessionQueryKey = ['session'] as const;

export function useSession() {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => request<SessionResponse>('get', '/api/session', undefined, { signal }),
  });
}
