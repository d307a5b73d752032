// The summary behind the research dashboard (GET /api/admin/science), asked for again every few
// seconds: the consensus behind it is refreshed about every second from new answers, so answers
// given while the page is open show up on it. Only the first load alerts on a failure; a poll
// the administrator did not ask for keeps the last summary and tries again.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScienceSummary } from '../../../../shared/science';
import { request } from '../../api/request';

export const scienceSummaryQueryKey = ['admin', 'science'] as const;
export const SCIENCE_REFRESH_MS = 5000;

export function useScienceSummary() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: scienceSummaryQueryKey,
    queryFn: ({ signal }) =>
      request<ScienceSummary>('get', '/api/admin/science', undefined, {
        signal,
        background: queryClient.getQueryData(scienceSummaryQueryKey) !== undefined,
      }),
    // Not before a first summary: a first load that failed has alerted 'Please Reload.' once,
    // and polling on would alert again every few seconds.
    refetchInterval: (query) => (query.state.data === undefined ? false : SCIENCE_REFRESH_MS),
  });
}
