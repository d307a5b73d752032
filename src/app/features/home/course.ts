// The course the main screen opens: the `course` parameter of the address (the login screen
// writes the server's recommended course there, application-spec §4), else the one chosen last
// time, else season2 (§3's default course). A chosen course is remembered for the next visit.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { COURSE_IDS, DEFAULT_COURSE, type CourseId } from '../../../shared/enums';

const STORAGE_KEY = 'galaxy-cruise.course';

function isCourse(value: string | null): value is CourseId {
  return value !== null && (COURSE_IDS as readonly string[]).includes(value);
}

export function useSelectedCourse(): CourseId {
  const [parameters] = useSearchParams();
  const fromAddress = parameters.get('course');
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(STORAGE_KEY) : null;
  const course = isCourse(fromAddress) ? fromAddress : isCourse(stored) ? stored : DEFAULT_COURSE;
  useEffect(() => {
    if (isCourse(fromAddress)) localStorage.setItem(STORAGE_KEY, fromAddress);
  }, [fromAddress]);
  return course;
}
