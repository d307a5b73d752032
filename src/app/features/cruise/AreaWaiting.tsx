// The panel of an area whose last galaxy is answered while its answers still wait to be sent
// (application-spec §4: the area's completion, its refresh and messages follow the answers): the
// answer form is gone and "Next galaxy" is disabled until the server has them, so this says why
// and what happens next. Offline (the browser says so), the answers are kept on this device and go
// by themselves when the connection comes back (the queue retries on the 'online' event); online,
// they are on their way, said only after SENDING_QUIET_MS (a post takes a moment every time).
// "Send now" retries at once, without waiting for the queue's back-off.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

function subscribeOnline(changed: () => void): () => void {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
}

/** Whether the browser says it is offline. */
export function useOffline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => !navigator.onLine);
}

/** How long answers may be on their way online before the panel says so. */
export const SENDING_QUIET_MS = 1000;

export function AreaWaiting({ count, onRetry }: { count: number; onRetry: () => void }) {
  const { t } = useTranslation();
  const offline = useOffline();
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SENDING_QUIET_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!offline && !slow) return null;
  const state = offline ? 'offline' : 'sending';
  return (
    <section
      className="area-waiting panel"
      role="status"
      aria-labelledby="area-waiting-title"
      data-testid="area-waiting"
      data-state={state}
    >
      <h2 id="area-waiting-title" className="area-waiting-title">
        {t(`cruise.areaWaiting.${state}.title`)}
      </h2>
      <p>{t(`cruise.areaWaiting.${state}.message`, { count })}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('cruise.areaWaiting.retry')}
      </button>
    </section>
  );
}
