// The columns that open the dashboard's tables of targets (the disputed and the reopened ones):
// the target's id as the row's header, a link that flies the main screen to it (README, "Links
// to a view"), and its course.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { DataColumn } from '../../components/DataTable';
import { targetViewPath } from './shape';
import { useCourseName } from './useCourseName';

interface TargetRow {
  object_id: number;
  course_id: string;
  ra: number;
  dec: number;
}

export function useTargetColumns(): { target: DataColumn<TargetRow>; course: DataColumn<TargetRow> } {
  const { t } = useTranslation();
  const courseName = useCourseName();
  return {
    target: {
      header: t('science.disputed.objectId'),
      rowHeader: true,
      cell: (row) => (
        <Link to={targetViewPath(row)} className="link" aria-label={t('science.disputed.flyTo', { id: row.object_id })}>
          {row.object_id}
        </Link>
      ),
    },
    course: { header: t('science.disputed.course'), cell: (row) => courseName(row.course_id) },
  };
}
