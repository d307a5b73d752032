// The course the main screen opens: the `course` parameter of the address (the login screen
// writes the server's recommended course there, application-spec §4), else the one chosen last
// time, else season2 (§3's default course). A chosen course is remembered for the next visit.
// Besides the five, an open imported course (GET /api/courses) may be chosen. An imported id is
// judged once the list has arrived (null until then): a course closed since the last visit would
// otherwise be asked for its quest, and refused with an alert.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { COURSE_ID_PATTERN, COURSE_IDS, DEFAULT_COURSE } from '../../../../shared/enums';
import { sailableCourses, useCourses } from '../../api/courses';

const STORAGE_KEY = 'galaxy-cruise.course';

export function useSelectedCourse(): string | null {
  const [parameters] = useSearchParams();
  const list = useCourses();
  // A list that failed leaves the five, as before the import existed.
  const sailable = list.isPending ? null : sailableCourses(list.data);
  const judge = (value: string | null): 'yes' | 'no' | 'wait' => {
    if (value === null || !COURSE_ID_PATTERN.test(value)) return 'no';
    if ((COURSE_IDS as readonly string[]).includes(value)) return 'yes';
    if (!sailable) return 'wait';
    return sailable.includes(value) ? 'yes' : 'no';
  };
  const fromAddress = parameters.get('course');
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(STORAGE_KEY) : null;
  const address = judge(fromAddress);
  useEffect(() => {
    if (address === 'yes' && fromAddress) localStorage.setItem(STORAGE_KEY, fromAddress);
  }, [fromAddress, address]);
  if (address === 'yes') return fromAddress;
  if (address === 'wait') return null;
  const remembered = judge(stored);
  if (remembered === 'yes') return stored;
  return remembered === 'wait' ? null : DEFAULT_COURSE;
}
