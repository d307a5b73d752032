// The service worker (Workbox, built by vite-plugin-pwa's injectManifest into /sw.js): the app
// starts from its cache, the sky it has seen is drawn without the network, and the main screen
// opens offline on the quest as the volunteer last saw it. What each cache holds and why is in
// caches.ts and docs/offline.md.
//
// - The shell: every file of the build except the researchers' and administrators' pages is
//   precached; a navigation is answered with the precached index.html. A new build is a new
//   worker that waits until the page asks it to take over (the "new version" notice's reload),
//   or until every tab of the old one is closed: a page never runs against a shell it was not
//   built with. The first worker takes control of the page that installed it at once, so that
//   a first visit's sky is kept.
// - The sky: metadata stale-while-revalidate (answered from the cache, asked for again behind
//   it: a 304 on a poor line costs a round trip, not the file); when a file that describes a
//   folder changes (a survey's meta.json, a HiPS's properties, the star catalogue's index.json),
//   the files kept from that folder are dropped. Backdrop files and tiles cache-first. Only
//   complete 200 answers are kept (a CORS answer from DATA_HOST is one; an opaque one is not).
// - /api/: nothing. The offline start's answers are the page's own (src/app/api/lastSeen.ts).
/// <reference lib="webworker" />
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, StaleWhileRevalidate, type Strategy } from 'workbox-strategies';
import { indexedDbBoundStores } from './bound-store';
import { CacheBound } from './cache-bound';
import {
  describedFolder,
  SKY_BACKDROP_CACHE,
  SKY_CACHE_LIMITS,
  SKY_TILES_CACHE,
  skyFileKind,
  type SkyFileKind,
  type WorkerMessage,
} from './caches';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
clientsClaim();

// A navigation (the app has hash routes: always '/') is the precached page.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api\//, /^\/stellar-globe\//] }),
);

const stores = indexedDbBoundStores([SKY_BACKDROP_CACHE, SKY_TILES_CACHE]);
const bounds = {
  [SKY_BACKDROP_CACHE]: new CacheBound(SKY_CACHE_LIMITS.backdrop, stores(SKY_BACKDROP_CACHE), () =>
    caches.open(SKY_BACKDROP_CACHE),
  ),
  [SKY_TILES_CACHE]: new CacheBound(SKY_CACHE_LIMITS.tiles, stores(SKY_TILES_CACHE), () =>
    caches.open(SKY_TILES_CACHE),
  ),
};

/** Keeps a cache's book: a put counts its bytes and applies the bound, a read makes the file recent. */
function boundPlugin(bound: CacheBound): WorkboxPlugin {
  return {
    cacheDidUpdate: async ({ request, newResponse }) => bound.added(request.url, (await newResponse.blob()).size),
    cachedResponseWillBeUsed: async ({ request, cachedResponse }) => {
      if (cachedResponse) void bound.used(request.url);
      return cachedResponse ?? null;
    },
  };
}

/** The metadata files whose change drops what was kept of their folder. */
const DESCRIBING_FILES = new Set(['meta.json', 'properties', 'index.json']);

/** Drops the files kept from a folder when the file that describes it has changed. */
const describedFolderPlugin: WorkboxPlugin = {
  cacheDidUpdate: async ({ request, oldResponse, newResponse }) => {
    const name = request.url.slice(request.url.lastIndexOf('/') + 1);
    if (!oldResponse || !DESCRIBING_FILES.has(name)) return;
    if ((await oldResponse.text()) === (await newResponse.text())) return;
    const folder = describedFolder(request.url);
    for (const [cacheName, bound] of Object.entries(bounds)) {
      const cache = await caches.open(cacheName);
      const stale = (await cache.keys())
        .map((key) => key.url)
        .filter((url) => url.startsWith(folder) && url !== request.url);
      await Promise.all(stale.map((url) => cache.delete(url)));
      await bound.removed(stale);
    }
  },
};

const complete = new CacheableResponsePlugin({ statuses: [200] });

const strategies: Record<SkyFileKind, Strategy> = {
  metadata: new StaleWhileRevalidate({
    cacheName: SKY_BACKDROP_CACHE,
    plugins: [complete, boundPlugin(bounds[SKY_BACKDROP_CACHE]), describedFolderPlugin],
  }),
  backdrop: new CacheFirst({
    cacheName: SKY_BACKDROP_CACHE,
    plugins: [complete, boundPlugin(bounds[SKY_BACKDROP_CACHE])],
  }),
  tile: new CacheFirst({ cacheName: SKY_TILES_CACHE, plugins: [complete, boundPlugin(bounds[SKY_TILES_CACHE])] }),
};

for (const kind of Object.keys(strategies) as SkyFileKind[])
  registerRoute(({ url, request }) => request.method === 'GET' && skyFileKind(url) === kind, strategies[kind]);

/**
 * The star catalogue's index (viewer-spec §7: a list of file names in the same folder): its files
 * are fetched by a decoder worker, whose loads the page's own list does not show.
 */
const STAR_INDEX = /\/hipparcos-catalog\/index\.json$/;

/** Keeps sky files the page had loaded before this worker controlled it, from the HTTP cache. */
async function keepLoaded(urls: readonly string[], event: ExtendableEvent): Promise<void> {
  const queue = [...urls];
  for (let href = queue.shift(); href !== undefined; href = queue.shift()) {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      continue;
    }
    const kind = skyFileKind(url);
    if (!kind) continue;
    // force-cache: the HTTP cache's copy even when stale; the network only for what it lacks.
    const request = new Request(url, { cache: 'force-cache', credentials: 'same-origin', mode: 'cors' });
    const response = await strategies[kind].handle({ event, request }).catch(() => undefined);
    if (response?.ok && STAR_INDEX.test(url.pathname)) {
      const files = (await response.json().catch(() => [])) as unknown;
      if (Array.isArray(files))
        for (const file of files) if (typeof file === 'string') queue.push(new URL(file, url).href);
    }
  }
}

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = event.data as WorkerMessage | undefined;
  if (message?.type === 'SKIP_WAITING') void self.skipWaiting();
  else if (message?.type === 'KEEP_LOADED' && Array.isArray(message.urls))
    event.waitUntil(keepLoaded(message.urls, event));
});
