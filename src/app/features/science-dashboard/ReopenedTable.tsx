// The targets an estimate opened again (docs/science.md, "Retirement"): retired by their course's
// rule, then found below it once the volunteers' reliability was estimated anew, so volunteers are
// sent to them again. Each links to the main screen at the target, as the disputed ones do.
import { useTranslation } from 'react-i18next';
import type { ScienceReopenedTarget } from '../../../../shared/science';
import type { DashboardFormats } from './format';
import { ScienceTable } from './ScienceTable';
import { useTargetColumns } from './targetColumns';

export function ReopenedTable({
  targets,
  formats,
}: {
  targets: readonly ScienceReopenedTarget[];
  formats: DashboardFormats;
}) {
  const { t } = useTranslation();
  const { target, course, volunteers, confidence } = useTargetColumns(formats);
  return (
    <ScienceTable
      id="science-reopened"
      title={t('science.reopened.title')}
      note={t('science.reopened.note')}
      testId="science-reopened"
      rows={targets}
      rowKey={(row) => row.object_id}
      columns={[
        target,
        course,
        volunteers,
        confidence,
        { header: t('science.reopened.retiredAt'), cell: (row) => formats.time(row.retired_at) },
        { header: t('science.reopened.reopenedAt'), cell: (row) => formats.time(row.reopened_at) },
      ]}
    />
  );
}
