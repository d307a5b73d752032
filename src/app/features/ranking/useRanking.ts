// GET /api/courses/{course_id}/rankings/{period} (application-spec §7): the top volunteers of a
// course in the current hour, day, week or month.
import { useQuery } from '@tanstack/react-query';
import type { RankingEntry, RankingPeriod } from '../../../../shared/api';
import { request } from '../../api/request';

/** The courses the ranking modal offers (application-spec §2); the open imported courses follow them. */
export const RANKING_COURSES = ['season2', 'illustris'] as const;

export const rankingQueryKey = (course: string, period: RankingPeriod) => ['ranking', course, period] as const;

export function useRanking(course: string, period: RankingPeriod) {
  return useQuery({
    queryKey: rankingQueryKey(course, period),
    queryFn: ({ signal }) =>
      request<RankingEntry[]>(
        'get',
        '/api/courses/{course_id}/rankings/{period}',
        { course_id: course, period },
        { signal },
      ),
  });
}
