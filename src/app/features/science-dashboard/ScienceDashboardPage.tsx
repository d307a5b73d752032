// /admin/science, the research dashboard (issue 29): administrators only; others see 'You must be
// logged in to view this page.', as on /admin/notifications. The headline numbers and exports
// per course, classifications and active volunteers per day, progress per course and level,
// the consensus confidence and accuracy charts, the top volunteers and the most disputed
// targets, all from GET /api/admin/science, asked for again every few seconds. A lazy route:
// the chart library is loaded with this page only, never with the volunteers' main screen.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScienceSummary } from '../../../shared/science';
import { currentLocale } from '../../i18n';
import { AdminPage } from '../admin/AdminPage';
import { formatDateTime } from '../notifications/format';
import { CourseTable } from './CourseTable';
import { DailyCharts } from './DailyCharts';
import { DisputedTable } from './DisputedTable';
import { dashboardFormats } from './format';
import { ProgressTable } from './ProgressTable';
import { QualityCharts } from './QualityCharts';
import { useScienceSummary } from './useScienceSummary';
import { VolunteersTable } from './VolunteersTable';
import '../admin/admin.css';
import './science-dashboard.css';

function Dashboard() {
  const { t } = useTranslation();
  const summary = useScienceSummary();
  if (!summary.data) return <p>{t('admin.loading')}</p>;
  return <DashboardContent summary={summary.data} />;
}

function DashboardContent({ summary }: { summary: ScienceSummary }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  // The formats change with the language only: the charts are drawn again when it changes.
  const formats = useMemo(() => dashboardFormats(locale), [locale]);
  return (
    <div className="science-dashboard">
      <p className="science-note">
        {summary.estimated_at
          ? t('science.estimatedAt', { date: formatDateTime(summary.estimated_at, locale) })
          : t('science.notEstimated')}{' '}
        {t('science.refreshing')}
      </p>
      <CourseTable courses={summary.courses} formats={formats} />
      <DailyCharts days={summary.days} formats={formats} />
      <ProgressTable courses={summary.courses} formats={formats} />
      <QualityCharts summary={summary} formats={formats} />
      <VolunteersTable volunteers={summary.volunteers} formats={formats} />
      <DisputedTable targets={summary.disputed} formats={formats} />
    </div>
  );
}

export function ScienceDashboardPage() {
  const { t } = useTranslation();
  return <AdminPage title={t('science.title')}>{() => <Dashboard />}</AdminPage>;
}
