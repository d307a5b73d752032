// The current quest of a course (GET /api/courses/{course_id}/quests/current), the levels of
// the course for the stage name (GET /api/levels?course_id=) and the areas per course
// (GET /api/server_info) for the cabin rank and the course's progress.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { CurrentQuestResponse, LevelDetail, LevelSummary, ServerInfoResponse } from '../../../shared/api';
import { lastSeenMeta } from './lastSeen';
import { request } from './request';

export const questQueryKey = (course: string) => ['quest', course] as const;

const QUEST_PATH = '/api/courses/{course_id}/quests/current';

/** The quest is kept for the offline start as last seen, the answers given since its fetch included. */
const questMeta = (course: string) => lastSeenMeta(QUEST_PATH, { course_id: course });

export function fetchQuest(course: string, signal?: AbortSignal) {
  return request<CurrentQuestResponse>('get', QUEST_PATH, { course_id: course }, { signal });
}

export function useQuest(course: string) {
  return useQuery({
    queryKey: questQueryKey(course),
    queryFn: ({ signal }) => fetchQuest(course, signal),
    meta: questMeta(course),
    // Never stale: the quest changes only by the main screen's own acts (an answer's response
    // written here, a course change that resets it), so a quest fetched ahead (prefetchQuest)
    // is not asked for again when the screen mounts.
    staleTime: Infinity,
  });
}

/**
 * Starts fetching a course's current quest before the main screen that shows it has mounted, and
 * resolves to it; to undefined if it failed (the main screen asks again and says why).
 */
export function prefetchQuest(queryClient: QueryClient, course: string): Promise<CurrentQuestResponse | undefined> {
  return queryClient
    .fetchQuery({
      queryKey: questQueryKey(course),
      queryFn: ({ signal }) => fetchQuest(course, signal),
      meta: questMeta(course),
    })
    .catch(() => undefined);
}

export function useLevels(course: string) {
  return useQuery({
    queryKey: ['levels', course],
    queryFn: ({ signal }) => request<LevelSummary[]>('get', '/api/levels', { course_id: course }, { signal }),
    meta: lastSeenMeta('/api/levels', { course_id: course }),
  });
}

export function fetchLevel(levelId: number) {
  return request<LevelDetail>('get', '/api/levels/{level_id}', { level_id: levelId });
}

/** GET /api/server_info as one query: the main screen, the mypage and an area's completion share it. */
export const serverInfoQuery = {
  queryKey: ['server_info'] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    request<ServerInfoResponse>('get', '/api/server_info', undefined, { signal }),
};

export function useServerInfo() {
  return useQuery(serverInfoQuery);
}

/**
 * Areas of a course, summed over its groups (GET /api/server_info): the whole course's, where
 * GET /api/levels lists a long course's window only (server/game/levels.ts, levelWindow).
 */
export function areasOfCourse(info: ServerInfoResponse, course: string): number {
  return Object.values(info.number_of_areas[course] ?? {}).reduce((sum, count) => sum + count, 0);
}
