// The targets an estimate opened again (docs/science.md, "Retirement"): retired by their course's
// rule, then found below it once the volunteers' reliability was estimated anew, so volunteers are
// sent to them again. Each links to the main screen at the target, as the disputed ones do.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ScienceReopenedTarget } from '../../../shared/science';
import type { DashboardFormats } from './format';
import { targetViewPath } from './shape';
import { useCourseName } from './useCourseName';

export function ReopenedTable({
  targets,
  formats,
}: {
  targets: readonly ScienceReopenedTarget[];
  formats: DashboardFormats;
}) {
  const { t } = useTranslation();
  const courseName = useCourseName();
  return (
    <section aria-labelledby="science-reopened">
      <h2 id="science-reopened">{t('science.reopened.title')}</h2>
      <p className="science-note">{t('science.reopened.note')}</p>
      {targets.length === 0 ? (
        <p>{t('science.none')}</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table science-table" data-testid="science-reopened">
            <thead>
              <tr>
                <th scope="col">{t('science.disputed.objectId')}</th>
                <th scope="col">{t('science.disputed.course')}</th>
                <th scope="col" className="number">
                  {t('science.disputed.volunteers')}
                </th>
                <th scope="col" className="number">
                  {t('science.disputed.confidence')}
                </th>
                <th scope="col">{t('science.reopened.retiredAt')}</th>
                <th scope="col">{t('science.reopened.reopenedAt')}</th>
              </tr>
            </thead>
            <tbody>
              {targets.map((target) => (
                <tr key={target.object_id}>
                  <th scope="row">
                    <Link
                      to={targetViewPath(target)}
                      className="link"
                      aria-label={t('science.disputed.flyTo', { id: target.object_id })}
                    >
                      {target.object_id}
                    </Link>
                  </th>
                  <td>{courseName(target.course_id)}</td>
                  <td className="number">{formats.count(target.volunteers)}</td>
                  <td className="number">{formats.probability(target.confidence)}</td>
                  <td>{formats.time(target.retired_at)}</td>
                  <td>{formats.time(target.reopened_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
