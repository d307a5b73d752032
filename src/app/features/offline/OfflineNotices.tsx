// The installable app's two notices, over every screen: "offline" while the browser has no
// network (the sky and the quest are then the cache's, answers wait in the queue), and "a new
// version is ready" with its Reload button once a new build's service worker waits to take over.
// Both are live regions (role="status"): a screen reader says them when they appear. They sit at
// the top of the window as a banner; their height is --notices-height on the root element, by
// which the main screen's header moves down under them (styles.css).
import { RefreshCw, WifiOff } from 'lucide-react';
import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { reloadIntoUpdate, useUpdateReady } from './serviceWorker';
import './offline.css';

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Whether the browser says it has a network (navigator.onLine and its events). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine);
}

export function OfflineNotices() {
  const { t } = useTranslation();
  const online = useOnline();
  const updateReady = useUpdateReady();
  const banner = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = banner.current;
    if (!element) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      const height = element.getBoundingClientRect().height;
      root.style.setProperty('--notices-height', `${height > 0 ? Math.ceil(height) + 8 : 0}px`);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--notices-height');
    };
  }, []);
  return (
    <div className="offline-notices" ref={banner}>
      <div role="status">
        {!online && (
          <p className="offline-notice panel" data-testid="offline-notice">
            <WifiOff aria-hidden="true" size={16} />
            <span>{t('offline.notice')}</span>
          </p>
        )}
      </div>
      <div role="status">
        {updateReady && (
          <p className="offline-notice panel" data-testid="update-notice">
            <RefreshCw aria-hidden="true" size={16} />
            <span>{t('offline.updateReady')}</span>
            <button type="button" className="button primary" onClick={reloadIntoUpdate}>
              {t('offline.reload')}
            </button>
          </p>
        )}
      </div>
    </div>
  );
}
