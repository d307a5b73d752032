// The columns that the dashboard's tables of targets (the disputed and the reopened ones) share:
// the target's id as the row's header, a link that flies the main screen to it (README, "Links
// to a view"), its course, its volunteers and its consensus confidence.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ScienceDisputedTarget } from '../../../../shared/science';
import type { DataColumn } from '../../components/DataTable';
import type { DashboardFormats } from './format';
import { targetViewPath } from './shape';
import { useCourseName } from './useCourseName';

/** What the disputed and the reopened targets both have. */
type TargetRow = Pick<ScienceDisputedTarget, 'object_id' | 'course_id' | 'ra' | 'dec' | 'volunteers' | 'confidence'>;

type TargetColumns = Record<'target' | 'course' | 'volunteers' | 'confidence', DataColumn<TargetRow>>;

export function useTargetColumns(formats: DashboardFormats): TargetColumns {
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
    volunteers: {
      header: t('science.disputed.volunteers'),
      numeric: true,
      cell: (row) => formats.count(row.volunteers),
    },
    confidence: {
      header: t('science.disputed.confidence'),
      numeric: true,
      cell: (row) => formats.probability(row.confidence),
    },
  };
}
