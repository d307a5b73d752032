// The courses the server plays (GET /api/courses, issue 30): application-spec's five, named by
// the client's strings, then the research groups' imported courses, named by the server in both
// languages. One query serves the course menu, the names on every screen and the course's HiPS.
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { COURSE_IDS } from '../../../shared/enums';
import type { CourseEntry, CoursesResponse } from '../../../shared/courses';
import { currentLocale } from '../i18n';
import { lastSeenMeta } from './lastSeen';
import { request } from './request';

export const coursesQueryKey = ['courses'] as const;

export function useCourses() {
  return useQuery({
    queryKey: coursesQueryKey,
    queryFn: ({ signal }) => request<CoursesResponse>('get', '/api/courses', undefined, { signal }),
    meta: lastSeenMeta('/api/courses'),
  });
}

/** The courses a volunteer may choose: the five always (they exist before the list arrives), then the open imported ones. */
export function sailableCourses(courses: readonly CourseEntry[] | undefined): string[] {
  const imported = (courses ?? []).filter((course) => course.imported && course.open).map((course) => course.id);
  return [...COURSE_IDS, ...imported];
}

/** A course's name in the page's language: the server's for an imported course, the strings' otherwise; an unknown course keeps its id. */
export function useCourseName(): (courseId: string) => string {
  const { t } = useTranslation();
  const courses = useCourses().data;
  return useCallback(
    (courseId: string) => {
      const name = courses?.find((course) => course.id === courseId)?.name;
      return name ? name[currentLocale()] : t(`home.courses.${courseId}`, { defaultValue: courseId });
    },
    [t, courses],
  );
}
