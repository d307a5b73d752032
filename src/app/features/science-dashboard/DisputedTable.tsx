// The targets the crowd disagrees on most (the lesser of the two questions' consensus confidence
// closest to 0.5), retired ones included and marked (a rule may have settled one too early), each
// with a link that flies the globe to it: the main screen opens the view its address names
// (README, "Links to a view").
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ScienceDisputedTarget } from '../../../shared/science';
import type { DashboardFormats } from './format';
import { targetViewPath } from './shape';
import { useCourseName } from './useCourseName';

export function DisputedTable({
  targets,
  formats,
}: {
  targets: readonly ScienceDisputedTarget[];
  formats: DashboardFormats;
}) {
  const { t } = useTranslation();
  const courseName = useCourseName();
  return (
    <section aria-labelledby="science-disputed">
      <h2 id="science-disputed">{t('science.disputed.title')}</h2>
      {targets.length === 0 ? (
        <p>{t('science.none')}</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table science-table">
            <thead>
              <tr>
                <th scope="col">{t('science.disputed.objectId')}</th>
                <th scope="col">{t('science.disputed.course')}</th>
                <th scope="col" className="number">
                  {t('science.disputed.ra')}
                </th>
                <th scope="col" className="number">
                  {t('science.disputed.dec')}
                </th>
                <th scope="col" className="number">
                  {t('science.disputed.volunteers')}
                </th>
                <th scope="col" className="number">
                  {t('science.disputed.confidence')}
                </th>
                <th scope="col">{t('science.disputed.galaxyType')}</th>
                <th scope="col">{t('science.disputed.interaction')}</th>
                <th scope="col">{t('science.disputed.retired')}</th>
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
                  <td className="number">{formats.degrees(target.ra)}</td>
                  <td className="number">{formats.degrees(target.dec)}</td>
                  <td className="number">{formats.count(target.volunteers)}</td>
                  <td className="number">{formats.probability(target.confidence)}</td>
                  <td>
                    {t(`cruise.galaxyType.${target.consensus_galaxy_type}`, {
                      defaultValue: target.consensus_galaxy_type,
                    })}
                  </td>
                  <td>
                    {t(`cruise.interaction.${target.consensus_interaction}`, {
                      defaultValue: target.consensus_interaction,
                    })}
                  </td>
                  <td>{t(target.retired ? 'science.disputed.yes' : 'science.disputed.no')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
