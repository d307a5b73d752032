import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/Spinner';

/** The main screen; until a current quest exists it is the loading view (application-spec §2). */
export function HomePage() {
  const { t } = useTranslation();
  return (
    <main className="home">
      <Spinner text={t('home.preparing')} />
    </main>
  );
}
