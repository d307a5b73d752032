// Progress per course and per level: targets, answered and retired, with a bar of the answered
// share; level names in the page's language. A level's name is a proper name (the survey field's,
// COSMOS or GAMA15h in Japanese too), not the interface's text: marked translate="no". A course of
// thousands of levels comes as runs of them, each named by its span ("Levels 1–417").
import { useTranslation } from 'react-i18next';
import type { ScienceCourseProgress } from '../../../../shared/science';
import { currentLocale } from '../../i18n';
import type { DashboardFormats } from './format';
import { ScienceTable } from './ScienceTable';
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
  const rows = courses.flatMap((course) => course.levels.map((level) => ({ course_id: course.course_id, level })));
  return (
    <ScienceTable
      id="science-progress"
      title={t('science.progress.title')}
      rows={rows}
      rowKey={(row) => `${row.course_id}-${row.level.level_id}`}
      columns={[
        { header: t('science.courses.course'), cell: (row) => courseName(row.course_id) },
        {
          header: t('science.progress.level'),
          rowHeader: true,
          // A run of a long course's levels (levelRows, server/science/dashboard.ts) is named by its span.
          cellProps: (row) => ({
            id: `science-level-${row.level.level_id}`,
            ...(row.level.levels ? {} : { lang: levelName(row.level, locale).lang, translate: 'no' as const }),
          }),
          cell: (row) =>
            row.level.levels
              ? t('science.progress.levels', {
                  first: formats.count(row.level.levels.first),
                  last: formats.count(row.level.levels.last),
                })
              : levelName(row.level, locale).text,
        },
        { header: t('science.courses.targets'), numeric: true, cell: (row) => formats.count(row.level.targets) },
        { header: t('science.courses.answered'), numeric: true, cell: (row) => formats.count(row.level.answered) },
        { header: t('science.courses.retired'), numeric: true, cell: (row) => formats.count(row.level.retired) },
        {
          header: t('science.progress.share'),
          cell: (row) => {
            const answered = share(row.level.answered, row.level.targets);
            return (
              <div className="science-progress">
                <progress max={1} value={answered} aria-labelledby={`science-level-${row.level.level_id}`} />
                <span>{formats.percent(answered)}</span>
              </div>
            );
          },
        },
      ]}
    />
  );
}
