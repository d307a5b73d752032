// The terms of use (application-spec §2), open to everyone.
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import './textPage.css';

const SECTIONS = ['purpose', 'account', 'data', 'conduct', 'changes'] as const;

export function TermsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="page-center">
      <main className="panel text-page">
        <header className="text-page-header">
          <button type="button" className="button" onClick={() => void navigate(-1)}>
            {t('common.back')}
          </button>
          <h1>{t('terms.title')}</h1>
        </header>
        {SECTIONS.map((section) => (
          <section key={section}>
            <h2>{t(`terms.sections.${section}Title`)}</h2>
            <p>{t(`terms.sections.${section}`)}</p>
          </section>
        ))}
      </main>
    </div>
  );
}
