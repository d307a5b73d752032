// Browser entry: i18n, React Query, the dialog stack, flash messages and the hash router. An
// uncaught start-up error is alerted with its stack and re-thrown (application-spec §8).
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createQueryClient } from './api/queryClient';
import { setReloadLine, setTooManyRequestsText } from './api/request';
import { initI18n } from './i18n';
import { createRouter } from './router';
import './styles.css';

async function start() {
  const i18n = await initI18n();
  // The failed-request alert (application-spec §8) ends in the page's language, and a rate
  // limit's alert is wholly in it.
  const alertLines = () => {
    setReloadLine(i18n.t('common.alertReload'));
    setTooManyRequestsText(i18n.t('common.alertTooManyRequests'));
  };
  alertLines();
  i18n.on('languageChanged', alertLines);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={createRouter()} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  alert(error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error));
  throw error;
});
