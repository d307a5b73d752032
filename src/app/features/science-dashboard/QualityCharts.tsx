// The consensus's quality per course: the histogram of the galaxy-type consensus confidence,
// and the crowd's accuracy against a single volunteer's as the votes per target grow (targets
// with a known truth only); each with its data as a table behind it.
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScienceSummary } from '../../../../shared/science';
import { accuracyChart, confidenceChart } from './charts';
import type { DashboardFormats } from './format';
import { PlotFigure } from './PlotFigure';
import { accuracyRows, confidenceRows } from './shape';
import { useCourseName } from './useCourseName';

export function QualityCharts({ summary, formats }: { summary: ScienceSummary; formats: DashboardFormats }) {
  const { t } = useTranslation();
  const courseName = useCourseName();
  const courseOrder = useMemo(() => summary.courses.map((course) => course.course_id), [summary.courses]);
  const confidence = useMemo(
    () => confidenceRows(summary.confidence, courseOrder, courseName),
    [summary.confidence, courseOrder, courseName],
  );
  const accuracy = useMemo(
    () => accuracyRows(summary.accuracy, courseOrder, courseName),
    [summary.accuracy, courseOrder, courseName],
  );
  const drawConfidence = useCallback(
    () =>
      confidenceChart(
        confidence,
        { confidence: t('science.confidence.bin'), targets: t('science.confidence.targets') },
        formats,
      ),
    [confidence, t, formats],
  );
  const drawAccuracy = useCallback(
    () =>
      accuracyChart(
        accuracy,
        {
          votes: t('science.accuracy.votes'),
          accuracy: t('science.accuracy.accuracy'),
          crowd: t('science.accuracy.crowd'),
          volunteer: t('science.accuracy.volunteer'),
        },
        formats,
      ),
    [accuracy, t, formats],
  );
  const crowd = accuracy.filter((row) => row.series === 'crowd');
  const volunteerAccuracy = new Map(
    accuracy.filter((row) => row.series === 'volunteer').map((row) => [`${row.course} ${row.votes}`, row.accuracy]),
  );
  return (
    <div className="science-charts">
      <PlotFigure
        caption={t('science.confidence.title')}
        draw={confidence.length > 0 ? drawConfidence : null}
        table={
          <table>
            <thead>
              <tr>
                <th scope="col">{t('science.courses.course')}</th>
                <th scope="col">{t('science.confidence.bin')}</th>
                <th scope="col">{t('science.confidence.targets')}</th>
              </tr>
            </thead>
            <tbody>
              {confidence.map((row) => (
                <tr key={`${row.course} ${row.from}`}>
                  <td>{row.course}</td>
                  <th scope="row">
                    {t('science.confidence.range', {
                      from: formats.probability(row.from),
                      to: formats.probability(row.to),
                    })}
                  </th>
                  <td>{formats.count(row.targets)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        }
      />
      <PlotFigure
        caption={t('science.accuracy.title')}
        draw={crowd.length > 0 ? drawAccuracy : null}
        table={
          <table>
            <thead>
              <tr>
                <th scope="col">{t('science.courses.course')}</th>
                <th scope="col">{t('science.accuracy.votes')}</th>
                <th scope="col">{t('science.accuracy.targets')}</th>
                <th scope="col">{t('science.accuracy.crowd')}</th>
                <th scope="col">{t('science.accuracy.volunteer')}</th>
              </tr>
            </thead>
            <tbody>
              {crowd.map((row) => (
                <tr key={`${row.course} ${row.votes}`}>
                  <td>{row.course}</td>
                  <th scope="row">
                    {row.orMore
                      ? t('science.accuracy.votesOrMore', { votes: formats.count(row.votes) })
                      : formats.count(row.votes)}
                  </th>
                  <td>{formats.count(row.targets)}</td>
                  <td>{formats.percent(row.accuracy)}</td>
                  <td>{formats.percent(volunteerAccuracy.get(`${row.course} ${row.votes}`) ?? null)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        }
      />
    </div>
  );
}
