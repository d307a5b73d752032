// The volunteers with most answers: how often their spiral/elliptical answers are the truth, and
// their estimated sensitivity and specificity for "spiral" (the reliability behind the weighted
// consensus). A nickname is the volunteer's own, shown as written whatever the page's language.
import { useTranslation } from 'react-i18next';
import type { ScienceVolunteer } from '../../../shared/science';
import type { DashboardFormats } from './format';

export function VolunteersTable({
  volunteers,
  formats,
}: {
  volunteers: readonly ScienceVolunteer[];
  formats: DashboardFormats;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="science-volunteers">
      <h2 id="science-volunteers">{t('science.volunteers.title')}</h2>
      {volunteers.length === 0 ? (
        <p>{t('science.none')}</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table science-table">
            <thead>
              <tr>
                <th scope="col">{t('science.volunteers.nickname')}</th>
                <th scope="col" className="number">
                  {t('science.volunteers.answers')}
                </th>
                <th scope="col" className="number">
                  {t('science.volunteers.agreement')}
                </th>
                <th scope="col" className="number">
                  {t('science.volunteers.sensitivity')}
                </th>
                <th scope="col" className="number">
                  {t('science.volunteers.specificity')}
                </th>
              </tr>
            </thead>
            <tbody>
              {volunteers.map((volunteer) => (
                <tr key={volunteer.user_id}>
                  <th scope="row" translate="no">
                    {volunteer.nickname}
                  </th>
                  <td className="number">{formats.count(volunteer.answers)}</td>
                  <td className="number">{formats.percent(volunteer.agreement)}</td>
                  <td className="number">{formats.percent(volunteer.galaxy_type_sensitivity)}</td>
                  <td className="number">{formats.percent(volunteer.galaxy_type_specificity)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
