// The dashboard's headline numbers, a row per course: answers, volunteers, targets, answered and
// retired targets, the course's retirement rule, and the course's catalogue, its raw answers and
// its volunteers' reliability (pseudonymous) as CSV, FITS and VOTable. The downloads are plain
// links: the browser streams the file to disk as the server writes it, a block at a time, and the
// administrator's session cookie goes with them.
import { useTranslation } from 'react-i18next';
import {
  SCIENCE_EXPORT_FORMATS,
  SCIENCE_EXPORT_TABLES,
  type ScienceCourseProgress,
  type ScienceExportFormat,
  type ScienceExportTable,
} from '../../../shared/science';
import type { DashboardFormats } from './format';
import { exportPath } from './shape';
import { useCourseName } from './useCourseName';

/** The formats' own names, the same in every language. */
const FORMAT_NAMES: Record<ScienceExportFormat, string> = { csv: 'CSV', fits: 'FITS', votable: 'VOTable' };
/** What each table's links say to a screen reader (the visible line names the table). */
const LINK_KEYS = {
  catalogue: 'science.courses.exportLink',
  answers: 'science.courses.exportAnswersLink',
  volunteers: 'science.courses.exportVolunteersLink',
} as const satisfies Record<ScienceExportTable, string>;

function RetirementRule({ course, formats }: { course: ScienceCourseProgress; formats: DashboardFormats }) {
  const { t } = useTranslation();
  const rule = course.retirement;
  const parts = [
    rule.min_volunteers !== null && t('science.courses.rule.minVolunteers', { count: rule.min_volunteers }),
    rule.min_confidence !== null &&
      t('science.courses.rule.minConfidence', { value: formats.probability(rule.min_confidence) }),
    rule.max_volunteers !== null && t('science.courses.rule.maxVolunteers', { count: rule.max_volunteers }),
  ].filter((part): part is string => typeof part === 'string');
  return <>{parts.length > 0 ? parts.join(', ') : t('science.courses.noRule')}</>;
}

export function CourseTable({
  courses,
  formats,
}: {
  courses: readonly ScienceCourseProgress[];
  formats: DashboardFormats;
}) {
  const { t } = useTranslation();
  const courseName = useCourseName();
  return (
    <section aria-labelledby="science-courses">
      <h2 id="science-courses">{t('science.courses.title')}</h2>
      <div className="admin-table-wrap">
        <table className="admin-table science-table">
          <thead>
            <tr>
              <th scope="col">{t('science.courses.course')}</th>
              <th scope="col" className="number">
                {t('science.courses.answers')}
              </th>
              <th scope="col" className="number">
                {t('science.courses.volunteers')}
              </th>
              <th scope="col" className="number">
                {t('science.courses.targets')}
              </th>
              <th scope="col" className="number">
                {t('science.courses.answered')}
              </th>
              <th scope="col" className="number">
                {t('science.courses.retired')}
              </th>
              <th scope="col">{t('science.courses.retirement')}</th>
              <th scope="col">{t('science.courses.export')}</th>
            </tr>
          </thead>
          <tbody>
            {courses.map((course) => (
              <tr key={course.course_id} data-testid={`science-course-${course.course_id}`}>
                <th scope="row">{courseName(course.course_id)}</th>
                <td className="number" data-testid="answers">
                  {formats.count(course.answers)}
                </td>
                <td className="number" data-testid="volunteers">
                  {formats.count(course.volunteers)}
                </td>
                <td className="number" data-testid="targets">
                  {formats.count(course.targets)}
                </td>
                <td className="number">{formats.count(course.answered)}</td>
                <td className="number">{formats.count(course.retired)}</td>
                <td>
                  <RetirementRule course={course} formats={formats} />
                </td>
                <td>
                  {SCIENCE_EXPORT_TABLES.map((table) => (
                    <div key={table} className="science-exports">
                      <span aria-hidden="true">{t(`science.courses.exportTable.${table}`)}</span>
                      {SCIENCE_EXPORT_FORMATS.map((format) => (
                        <a key={format} className="link" href={exportPath(course.course_id, format, table)} download>
                          <span className="science-visually-hidden">
                            {t(LINK_KEYS[table], { course: courseName(course.course_id) })}{' '}
                          </span>
                          <span translate="no">{FORMAT_NAMES[format]}</span>
                        </a>
                      ))}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
