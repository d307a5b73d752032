// Browser entry: i18n, React Query, the dialog stack, flash messages and the hash router. An
// uncaught start-up error is alerted with its stack and re-thrown (application-spec §8). Then the
// installable app's parts (features/offline): the manifest of the page's language, the offline
// start's answers kept as last seen, and the service worker, registered once the page has loaded.
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import type { SessionResponse } from '../../shared/api';
import { keepLastSeen, lastSeenAnswer } from './api/lastSeen';
import { createQueryClient } from './api/queryClient';
import { setOfflineAnswer, setReloadLine, setTooManyRequestsText } from './api/request';
import { sessionQueryKey } from './api/session';
import { followManifestLanguage } from './features/offline/manifestLink';
import { registerServiceWorker } from './features/offline/serviceWorker';
import { initI18n } from './i18n';
import { createRouter } from './router';
import './styles.css';

/** The build's version (vite.config.ts), on <html data-version> for whoever asks which build runs. */
declare const __GALAXY_CRUISE_VERSION__: string;

async function start() {
  document.documentElement.dataset.version = __GALAXY_CRUISE_VERSION__;
  const i18n = await initI18n();
  // The failed-request alert (application-spec §8) ends in the page's language, and a rate
  // limit's alert is wholly in it.
  const alertLines = () => {
    setReloadLine(i18n.t('common.alertReload'));
    setTooManyRequestsText(i18n.t('common.alertTooManyRequests'));
  };
  alertLines();
  i18n.on('languageChanged', alertLines);
  followManifestLanguage(i18n);
  const queryClient = createQueryClient();
  keepLastSeen(queryClient, () => !!queryClient.getQueryData<SessionResponse>(sessionQueryKey)?.current_user);
  setOfflineAnswer(lastSeenAnswer);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={createRouter()} />
      </QueryClientProvider>
    </StrictMode>,
  );
  registerServiceWorker();
}

start().catch((error: unknown) => {
  alert(error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error));
  throw error;
});
