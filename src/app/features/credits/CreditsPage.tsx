// The credits screen (application-spec §2): the data credits from the data repository's
// credits.json (written by skydata/build.ts from skydata/credits.ts), open to everyone, as the
// login screen links to it. The datasets' published names, sources and licences are kept as
// published and marked as English; what each is used for, and the title of an entry that
// describes data rather than naming a dataset, are the project's own words, in the page's
// language (a data host with an older credits.json has them in English only).
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import '../terms/textPage.css';
import { dataRepositoryUrl } from '../../../../core/dataRepository';
import type { Localized } from '../../../../shared/catalogue';
import { currentLocale } from '../../i18n';
import { Spinner } from '../../components/Spinner';

interface Credit {
  name: Localized | string;
  usedFor: Localized | string;
  source: string;
  licence: string;
  url: string;
}

function creditsUrl(): string {
  const dataHost = document.querySelector<HTMLMetaElement>('meta[name="galaxy-cruise-data-host"]')?.content;
  return `${dataRepositoryUrl(location, dataHost)}/credits.json`;
}

export function CreditsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locale = currentLocale();
  // A plain fetch: a missing file is shown on the page rather than as the §8 alert.
  const list = useQuery({
    queryKey: ['credits'],
    queryFn: async ({ signal }) => {
      const response = await fetch(creditsUrl(), { signal });
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      return (await response.json()) as Credit[];
    },
    staleTime: Infinity,
  });
  return (
    <div className="page-center">
      <main className="panel text-page">
        <header className="text-page-header">
          <button type="button" className="button" onClick={() => void navigate(-1)}>
            {t('common.back')}
          </button>
          <h1>{t('credits.title')}</h1>
        </header>
        <p>{t('credits.intro')}</p>
        {list.isPending && <Spinner />}
        {list.isError && (
          <p className="form-error" role="alert">
            {t('credits.failed')}
          </p>
        )}
        {list.data && (
          <ul className="credits-list">
            {list.data.map((credit) => (
              <li key={typeof credit.name === 'string' ? credit.name : credit.name.en}>
                <h2 lang={typeof credit.name === 'string' ? 'en' : undefined}>
                  <a href={credit.url} target="_blank" rel="noreferrer" className="link">
                    {typeof credit.name === 'string' ? credit.name : credit.name[locale]}
                  </a>
                </h2>
                <dl>
                  <dt>{t('credits.usedFor')}</dt>
                  {typeof credit.usedFor === 'string' ? (
                    <dd lang="en">{credit.usedFor}</dd>
                  ) : (
                    <dd>{credit.usedFor[locale]}</dd>
                  )}
                  <dt>{t('credits.source')}</dt>
                  <dd lang="en">{credit.source}</dd>
                  <dt>{t('credits.licence')}</dt>
                  <dd lang="en">{credit.licence}</dd>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
