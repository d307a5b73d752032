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
} from '../../../../shared/science';
import type { DashboardFormats } from './format';
import { ScienceTable } from './ScienceTable';
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
    <ScienceTable
      id="science-courses"
      title={t('science.courses.title')}
      rows={courses}
      rowKey={(course) => course.course_id}
      rowProps={(course) => ({ 'data-testid': `science-course-${course.course_id}` })}
      columns={[
        { header: t('science.courses.course'), rowHeader: true, cell: (course) => courseName(course.course_id) },
        {
          header: t('science.courses.answers'),
          numeric: true,
          cellProps: () => ({ 'data-testid': 'answers' }),
          cell: (course) => formats.count(course.answers),
        },
        {
          header: t('science.courses.volunteers'),
          numeric: true,
          cellProps: () => ({ 'data-testid': 'volunteers' }),
          cell: (course) => formats.count(course.volunteers),
        },
        {
          header: t('science.courses.targets'),
          numeric: true,
          cellProps: () => ({ 'data-testid': 'targets' }),
          cell: (course) => formats.count(course.targets),
        },
        { header: t('science.courses.answered'), numeric: true, cell: (course) => formats.count(course.answered) },
        { header: t('science.courses.retired'), numeric: true, cell: (course) => formats.count(course.retired) },
        {
          header: t('science.courses.retirement'),
          cell: (course) => <RetirementRule course={course} formats={formats} />,
        },
        { header: t('science.courses.export'), cell: (course) => <Exports course={course} /> },
      ]}
    />
  );
}

/** The course's three tables, each in the three formats: plain links (see the file's head). */
function Exports({ course }: { course: ScienceCourseProgress }) {
  const { t } = useTranslation();
  const courseName = useCourseName();
  return SCIENCE_EXPORT_TABLES.map((table) => (
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
  ));
}
