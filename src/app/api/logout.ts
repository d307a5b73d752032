// Logout (application-spec §4): DELETE /api/session, then the session is fetched again, which
// sends the access gate to /login.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from './request';
import { sessionQueryKey } from './session';

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request<void>('delete', '/api/session'),
    onSuccess: () => queryClient.refetchQueries({ queryKey: sessionQueryKey }),
  });
}
