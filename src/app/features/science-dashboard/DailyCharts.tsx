// Classifications per day (bars) and active volunteers per day (a line) over the summary's last
// 30 days, each with the days as a table behind it; with none in those days, 'No data yet.' (a
// chart of zeros would draw its bars full height over an empty domain).
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScienceDay } from '../../../../shared/science';
import { dailyChart } from './charts';
import type { DashboardFormats } from './format';
import { PlotFigure } from './PlotFigure';
import { dailyRows } from './shape';

export function DailyCharts({ days, formats }: { days: readonly ScienceDay[]; formats: DashboardFormats }) {
  const { t } = useTranslation();
  const rows = useMemo(() => dailyRows(days), [days]);
  const drawAnswers = useCallback(
    () => dailyChart(rows, 'answers', { day: t('science.daily.day'), value: t('science.daily.answers') }, formats),
    [rows, t, formats],
  );
  const drawVolunteers = useCallback(
    () =>
      dailyChart(rows, 'volunteers', { day: t('science.daily.day'), value: t('science.daily.volunteers') }, formats),
    [rows, t, formats],
  );
  const table = (field: 'answers' | 'volunteers', testId: string) => (
    <table data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{t('science.daily.day')}</th>
          <th scope="col">{t(`science.daily.${field}`)}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={days[index].day} data-day={days[index].day}>
            <th scope="row">{formats.day(row.date)}</th>
            <td>{formats.count(row[field])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <div className="science-charts">
      <PlotFigure
        caption={t('science.daily.answersTitle')}
        draw={rows.some((row) => row.answers > 0) ? drawAnswers : null}
        table={table('answers', 'science-daily-answers')}
      />
      <PlotFigure
        caption={t('science.daily.volunteersTitle')}
        draw={rows.some((row) => row.volunteers > 0) ? drawVolunteers : null}
        table={table('volunteers', 'science-daily-volunteers')}
      />
    </div>
  );
}
