// Logout (application-spec §4): DELETE /api/session, then the volunteer's answers kept for the
// offline start are deleted (api/lastSeen.ts) and the session is fetched again, which sends the
// access gate to /login.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { forgetLastSeen } from './lastSeen';
import { request } from './request';
import { sessionQueryKey } from './session';

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request<void>('delete', '/api/session'),
    onSuccess: async () => {
      await forgetLastSeen();
      await queryClient.refetchQueries({ queryKey: sessionQueryKey });
    },
  });
}
