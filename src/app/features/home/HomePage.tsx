// The main screen (application-spec §2); until a current quest exists it is the loading view,
// with the course it opens and the log-out button.
import { useTranslation } from 'react-i18next';
import { useLogout } from '../../api/logout';
import { Spinner } from '../../components/Spinner';
import { AccountLinks } from '../profile/AccountLinks';
import { useSelectedCourse } from './course';

export function HomePage() {
  const { t } = useTranslation();
  const course = useSelectedCourse();
  const logout = useLogout();
  return (
    <main className="home">
      <header className="home-header panel">
        <span data-testid="course">{t('home.course', { name: t(`home.courses.${course}`) })}</span>
        <AccountLinks />
        <button type="button" className="button" onClick={() => logout.mutate()} disabled={logout.isPending}>
          {t('common.logout')}
        </button>
      </header>
      <Spinner text={t('home.preparing')} />
    </main>
  );
}
