// The course the main screen opens: the `course` parameter of the address (the login screen
// writes the server's recommended course there, application-spec §4), else the one chosen last
// time, else season2 (§3's default course). A chosen course is remembered for the next visit.
// Besides the five, an open imported course (GET /api/courses) may be chosen; until the list has
// arrived an imported id is taken on trust, so the first quest is not fetched for the wrong course.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { COURSE_ID_PATTERN, COURSE_IDS, DEFAULT_COURSE } from '../../../shared/enums';
import { sailableCourses, useCourses } from '../../api/courses';

const STORAGE_KEY = 'galaxy-cruise.course';

export function useSelectedCourse(): string {
  const [parameters] = useSearchParams();
  const courses = useCourses().data;
  const isCourse = (value: string | null): value is string => {
    if (value === null) return false;
    if ((COURSE_IDS as readonly string[]).includes(value)) return true;
    return courses ? sailableCourses(courses).includes(value) : COURSE_ID_PATTERN.test(value);
  };
  const fromAddress = parameters.get('course');
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(STORAGE_KEY) : null;
  const course = isCourse(fromAddress) ? fromAddress : isCourse(stored) ? stored : DEFAULT_COURSE;
  const remember = isCourse(fromAddress);
  useEffect(() => {
    if (remember && fromAddress) localStorage.setItem(STORAGE_KEY, fromAddress);
  }, [fromAddress, remember]);
  return course;
}
