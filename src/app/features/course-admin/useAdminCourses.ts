// GET /api/admin/courses and PUT /api/admin/courses/{course_id} (issue 30): the courses with
// their source and progress, and opening or closing an imported course. A change is read again
// by this list and by the volunteers' course menu (GET /api/courses).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminCourseEntry, AdminCourseUpdate } from '../../../../shared/courses';
import { coursesQueryKey } from '../../api/courses';
import { request } from '../../api/request';

const adminCoursesQueryKey = ['admin', 'courses'] as const;

export function useAdminCourses() {
  return useQuery({
    queryKey: adminCoursesQueryKey,
    queryFn: ({ signal }) => request<AdminCourseEntry[]>('get', '/api/admin/courses', undefined, { signal }),
  });
}

export function useSetCourseOpen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, open }: { id: string } & AdminCourseUpdate) =>
      request<void>('put', '/api/admin/courses/{course_id}', { course_id: id, open }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminCoursesQueryKey }),
        queryClient.invalidateQueries({ queryKey: coursesQueryKey }),
      ]),
  });
}
