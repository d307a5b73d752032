// The page of a route that cannot render (application-spec §2): headed 'Unexpected Application
// Error!' (in the user's language), with the error's message and a reload button.
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

export function ErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? error.status === 404
      ? t('common.notFound')
      : `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main className="error-page panel">
      <h1>{t('common.unexpectedError')}</h1>
      <p className="error-detail">{detail}</p>
      <button type="button" className="button primary" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </button>
    </main>
  );
}
