// /admin/science, the research dashboard (issue 29): administrators only; a visitor who is not
// logged in sees 'You must be logged in to view this page.', a volunteer that the page is for
// administrators. The headline numbers and exports per course, classifications and active
// volunteers per day (days of the server's time zone, named), progress per course and level,
// the consensus confidence and accuracy charts, the top volunteers, the most disputed targets
// (retired ones marked) and the targets an estimate opened again, all from GET /api/admin/science,
// asked for again every few seconds. Times are written in the server's time zone, named. A lazy
// route: the chart library is loaded with this page only, never with the volunteers' main screen.
import { useMemo } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { ScienceSummary } from '../../../../shared/science';
import { currentLocale } from '../../i18n';
import { AdminPage } from '../admin/AdminPage';
import { CourseTable } from './CourseTable';
import { DailyCharts } from './DailyCharts';
import { DisputedTable } from './DisputedTable';
import { dashboardFormats } from './format';
import { ProgressTable } from './ProgressTable';
import { QualityCharts } from './QualityCharts';
import { ReopenedTable } from './ReopenedTable';
import { useScienceSummary } from './useScienceSummary';
import { VolunteersTable } from './VolunteersTable';
import '../admin/admin.css';
import './science-dashboard.css';

/** The time zone's IANA name, the same in every language. */
const ZONE = { zone: <span translate="no" /> };

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
  const formats = useMemo(() => dashboardFormats(locale, summary.time_zone), [locale, summary.time_zone]);
  return (
    <div className="science-dashboard">
      <p className="science-note" data-testid="science-note">
        {summary.estimated_at ? (
          <Trans
            i18nKey="science.estimatedAt"
            values={{ date: formats.time(summary.estimated_at), zone: summary.time_zone }}
            components={ZONE}
          />
        ) : (
          t('science.notEstimated')
        )}{' '}
        <Trans i18nKey="science.timeZone" values={{ zone: summary.time_zone }} components={ZONE} />{' '}
        {t('science.refreshing')}
      </p>
      <CourseTable courses={summary.courses} formats={formats} />
      <DailyCharts days={summary.days} formats={formats} />
      <ProgressTable courses={summary.courses} formats={formats} />
      <QualityCharts summary={summary} formats={formats} />
      <VolunteersTable volunteers={summary.volunteers} formats={formats} />
      <DisputedTable targets={summary.disputed} formats={formats} />
      <ReopenedTable targets={summary.reopened} formats={formats} />
    </div>
  );
}

export function ScienceDashboardPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('science.title')} volunteerRefusal="forAdministrators">
      {() => <Dashboard />}
    </AdminPage>
  );
}
