// The page's side of the service worker (src/service-worker/sw.ts), through workbox-window:
// registration once the page has loaded (its own downloads first), the new version waiting
// (the notice's state, useUpdateReady) and the reload into it, and on a first visit the sky
// files loaded before the worker took control, handed to it to keep.
//
// Service workers need a secure context: https, or http on localhost / 127.0.0.1. Elsewhere
// (and in `npm run dev`, which serves no worker) the app runs as before, from the network.
import { useSyncExternalStore } from 'react';
import { Workbox } from 'workbox-window';
import type { WorkerMessage } from '../../../service-worker/caches';

/** How often an open page asks whether a new version was deployed (the browser also asks at each start). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** How long the reload waits for the new version to take control before it reloads anyway. */
const RELOAD_FALLBACK_MS = 5000;

let workbox: Workbox | null = null;
let updateReady = false;
const listeners = new Set<() => void>();

function setUpdateReady(): void {
  updateReady = true;
  for (const listener of listeners) listener();
}

/** Registers /sw.js once the page has loaded; does nothing where service workers are unavailable. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const start = () => {
    const controlledAtStart = navigator.serviceWorker.controller !== null;
    workbox = new Workbox('/sw.js');
    // A new version installed while this page runs the old one (or found waiting at the start).
    workbox.addEventListener('waiting', setUpdateReady);
    // The first worker took control of this page: what the page loaded without it is handed over.
    if (!controlledAtStart) workbox.addEventListener('controlling', handOverLoadedWithoutWorker);
    // A browser that refuses (a setting, a full disk, a test's block) leaves the app as it was
    // before: it runs from the network.
    workbox.register().catch((error: unknown) => console.warn('Galaxy Cruise works online only here:', error));
    setInterval(() => void workbox?.update(), UPDATE_CHECK_MS);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

/**
 * Hands the worker, to keep, what this page loaded without it: every resource loaded so far, and
 * those still under way when it took control (they end later, and went to the network, not
 * through it). A resource that went through the worker has a workerStart (Resource Timing); the
 * worker keeps only sky files, from the HTTP cache.
 */
function handOverLoadedWithoutWorker(): void {
  new PerformanceObserver((list) => {
    const urls = list
      .getEntries()
      .filter((entry) => (entry as PerformanceResourceTiming).workerStart === 0)
      .map((entry) => entry.name);
    const message: WorkerMessage = { type: 'KEEP_LOADED', urls };
    if (urls.length > 0) navigator.serviceWorker.controller?.postMessage(message);
  }).observe({ type: 'resource', buffered: true });
}

/** Whether a new version waits to take over (the notice shows while it does). */
export function useUpdateReady(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => updateReady,
  );
}

/** Lets the waiting version take over, then reloads the page into it. */
export function reloadIntoUpdate(): void {
  if (!workbox) return location.reload();
  workbox.addEventListener('controlling', () => location.reload());
  workbox.messageSkipWaiting();
  // Should the waiting worker be gone (another tab took it over meanwhile), reload all the same.
  setTimeout(() => location.reload(), RELOAD_FALLBACK_MS);
}
