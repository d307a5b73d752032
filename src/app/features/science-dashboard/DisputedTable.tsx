// The targets the crowd disagrees on most (the lesser of the two questions' consensus confidence
// closest to 0.5), retired ones included and marked (a rule may have settled one too early), each
// with a link that flies the globe to it: the main screen opens the view its address names
// (README, "Links to a view").
import { useTranslation } from 'react-i18next';
import type { ScienceDisputedTarget } from '../../../../shared/science';
import type { DashboardFormats } from './format';
import { ScienceTable } from './ScienceTable';
import { useTargetColumns } from './targetColumns';

export function DisputedTable({
  targets,
  formats,
}: {
  targets: readonly ScienceDisputedTarget[];
  formats: DashboardFormats;
}) {
  const { t } = useTranslation();
  const { target, course, volunteers, confidence } = useTargetColumns(formats);
  return (
    <ScienceTable
      id="science-disputed"
      title={t('science.disputed.title')}
      rows={targets}
      rowKey={(row) => row.object_id}
      columns={[
        target,
        course,
        { header: t('science.disputed.ra'), numeric: true, cell: (row) => formats.degrees(row.ra) },
        { header: t('science.disputed.dec'), numeric: true, cell: (row) => formats.degrees(row.dec) },
        volunteers,
        confidence,
        {
          header: t('science.disputed.galaxyType'),
          cell: (row) =>
            t(`cruise.galaxyType.${row.consensus_galaxy_type}`, { defaultValue: row.consensus_galaxy_type }),
        },
        {
          header: t('science.disputed.interaction'),
          cell: (row) =>
            t(`cruise.interaction.${row.consensus_interaction}`, { defaultValue: row.consensus_interaction }),
        },
        {
          header: t('science.disputed.retired'),
          cell: (row) => t(row.retired ? 'science.disputed.yes' : 'science.disputed.no'),
        },
      ]}
    />
  );
}
