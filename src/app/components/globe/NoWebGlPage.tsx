// What a browser without WebGL2 shows instead of the application: the globe has alerted
// 'Fails on initializing WebGL.' and thrown (viewer-spec §8); this page says in the volunteer's
// language what is missing and what to do, with the browser's own words below.
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../LanguageSwitch';

export function NoWebGlPage({ cause }: { cause: string }) {
  const { t } = useTranslation();
  return (
    <main className="page-center no-webgl" data-testid="no-webgl">
      <section className="panel form-card" aria-labelledby="no-webgl-title">
        <h1 id="no-webgl-title">{t('globe.noWebGlTitle')}</h1>
        <p>{t('globe.noWebGlText')}</p>
        <p>{t('globe.noWebGlCause')}</p>
        <pre className="no-webgl-cause" lang="en" translate="no">
          {cause}
        </pre>
        <LanguageSwitch />
      </section>
    </main>
  );
}
