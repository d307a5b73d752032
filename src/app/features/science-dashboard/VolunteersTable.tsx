// The volunteers with most answers: how often their spiral/elliptical answers are the truth, and
// their estimated sensitivity and specificity for "spiral" (the reliability behind the weighted
// consensus). A nickname is the volunteer's own, shown as written whatever the page's language.
import { useTranslation } from 'react-i18next';
import type { ScienceVolunteer } from '../../../../shared/science';
import type { DashboardFormats } from './format';
import { ScienceTable } from './ScienceTable';

export function VolunteersTable({
  volunteers,
  formats,
}: {
  volunteers: readonly ScienceVolunteer[];
  formats: DashboardFormats;
}) {
  const { t } = useTranslation();
  return (
    <ScienceTable
      id="science-volunteers"
      title={t('science.volunteers.title')}
      rows={volunteers}
      rowKey={(row) => row.user_id}
      columns={[
        {
          header: t('science.volunteers.nickname'),
          rowHeader: true,
          cellProps: () => ({ translate: 'no' }),
          cell: (row) => row.nickname,
        },
        { header: t('science.volunteers.answers'), numeric: true, cell: (row) => formats.count(row.answers) },
        { header: t('science.volunteers.agreement'), numeric: true, cell: (row) => formats.percent(row.agreement) },
        {
          header: t('science.volunteers.sensitivity'),
          numeric: true,
          cell: (row) => formats.percent(row.galaxy_type_sensitivity),
        },
        {
          header: t('science.volunteers.specificity'),
          numeric: true,
          cell: (row) => formats.percent(row.galaxy_type_specificity),
        },
      ]}
    />
  );
}
