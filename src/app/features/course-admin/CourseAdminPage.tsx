// /admin/courses (issue 30): administrators only, framed as every admin page (AdminPage). A row
// per course with where it comes from (the sky's catalogue, or the manifest an imported course
// was imported from last), its levels, targets, answered targets, volunteers and answers, and
// whether volunteers may sail it: an imported course is opened or closed here (the five of
// application-spec are always open). The change is flashed in words, for screen readers too.
import { useTranslation } from 'react-i18next';
import type { AdminCourseEntry } from '../../../../shared/courses';
import { useCourseName } from '../../api/courses';
import { useFlash } from '../../components/Flash';
import { currentLocale } from '../../i18n';
import { AdminPage } from '../admin/AdminPage';
import '../admin/admin.css';
import './course-admin.css';
import { useAdminCourses, useSetCourseOpen } from './useAdminCourses';

function OpenToggle({ course }: { course: AdminCourseEntry }) {
  const { t } = useTranslation();
  const courseName = useCourseName();
  const flash = useFlash();
  const setOpen = useSetCourseOpen();
  if (!course.imported) return <>{t('courseAdmin.alwaysOpen')}</>;
  const name = courseName(course.id);
  const toggle = () =>
    setOpen.mutate(
      { id: course.id, open: !course.open },
      {
        onSuccess: () => flash(t(course.open ? 'courseAdmin.closedNow' : 'courseAdmin.opened', { course: name })),
      },
    );
  return (
    <button
      type="button"
      className="button"
      onClick={toggle}
      disabled={setOpen.isPending}
      aria-label={t(course.open ? 'courseAdmin.closeLabel' : 'courseAdmin.openLabel', { course: name })}
      data-testid={`course-open-${course.id}`}
    >
      {t(course.open ? 'courseAdmin.closeCourse' : 'courseAdmin.openCourse')}
    </button>
  );
}

function CourseRows({ courses }: { courses: readonly AdminCourseEntry[] }) {
  const { t } = useTranslation();
  const courseName = useCourseName();
  const numbers = new Intl.NumberFormat(currentLocale());
  const counts = (course: AdminCourseEntry) => [
    course.levels,
    course.targets,
    course.answered_targets,
    course.volunteers,
    course.answers,
  ];
  return (
    <div className="admin-table-wrap">
      <table className="admin-table course-admin-table" data-testid="course-admin-table">
        <thead>
          <tr>
            <th scope="col">{t('courseAdmin.columns.course')}</th>
            <th scope="col">{t('courseAdmin.columns.source')}</th>
            {(['levels', 'targets', 'answered', 'volunteers', 'answers'] as const).map((column) => (
              <th key={column} scope="col" className="number">
                {t(`courseAdmin.columns.${column}`)}
              </th>
            ))}
            <th scope="col">{t('courseAdmin.columns.status')}</th>
            <th scope="col">{t('courseAdmin.columns.action')}</th>
          </tr>
        </thead>
        <tbody>
          {courses.map((course) => (
            <tr key={course.id} data-course={course.id}>
              <th scope="row">{courseName(course.id)}</th>
              <td className="course-source">{course.imported ? course.source : t('courseAdmin.catalogue')}</td>
              {counts(course).map((count, index) => (
                <td key={index} className="number">
                  {numbers.format(count)}
                </td>
              ))}
              <td className="course-status">{t(course.open ? 'courseAdmin.open' : 'courseAdmin.closed')}</td>
              <td>
                <OpenToggle course={course} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CourseList() {
  const { t } = useTranslation();
  const courses = useAdminCourses();
  if (!courses.data) return <p>{t('admin.loading')}</p>;
  return (
    <>
      <p>{t('courseAdmin.intro')}</p>
      <CourseRows courses={courses.data} />
    </>
  );
}

export function CourseAdminPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('courseAdmin.title')} volunteerRefusal="forAdministrators">
      {() => <CourseList />}
    </AdminPage>
  );
}
