// Progress per course and per level: targets, answered and retired, with a bar of the answered
// share; level names in the page's language. A level's name is a proper name (the survey field's,
// COSMOS or GAMA15h in Japanese too), not the interface's text: marked translate="no".
import { useTranslation } from 'react-i18next';
import type { ScienceCourseProgress } from '../../../shared/science';
import { currentLocale } from '../../i18n';
import type { DashboardFormats } from './format';
import { levelName, share } from './shape';
import { useCourseName } from './useCourseName';

export function ProgressTable({
  courses,
  formats,
}: {
  courses: readonly ScienceCourseProgress[];
  formats: DashboardFormats;
}) {
  const { t } = useTranslation();
  const courseName = useCourseName();
  const locale = currentLocale();
  return (
    <section aria-labelledby="science-progress">
      <h2 id="science-progress">{t('science.progress.title')}</h2>
      <div className="admin-table-wrap">
        <table className="admin-table science-table">
          <thead>
            <tr>
              <th scope="col">{t('science.courses.course')}</th>
              <th scope="col">{t('science.progress.level')}</th>
              <th scope="col" className="number">
                {t('science.courses.targets')}
              </th>
              <th scope="col" className="number">
                {t('science.courses.answered')}
              </th>
              <th scope="col" className="number">
                {t('science.courses.retired')}
              </th>
              <th scope="col">{t('science.progress.share')}</th>
            </tr>
          </thead>
          <tbody>
            {courses.flatMap((course) =>
              course.levels.map((level) => {
                const name = levelName(level, locale);
                const answered = share(level.answered, level.targets);
                return (
                  <tr key={`${course.course_id}-${level.level_id}`}>
                    <td>{courseName(course.course_id)}</td>
                    <th scope="row" id={`science-level-${level.level_id}`} lang={name.lang} translate="no">
                      {name.text}
                    </th>
                    <td className="number">{formats.count(level.targets)}</td>
                    <td className="number">{formats.count(level.answered)}</td>
                    <td className="number">{formats.count(level.retired)}</td>
                    <td>
                      <div className="science-progress">
                        <progress max={1} value={answered} aria-labelledby={`science-level-${level.level_id}`} />
                        <span>{formats.percent(answered)}</span>
                      </div>
                    </td>
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
