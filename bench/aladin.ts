// Aladin Lite (npm aladin-lite), a standard HiPS client, served from this machine beside our own
// server: the page that opens it on the sky repository's HiPS with its controls hidden, and the
// routes that serve that page and the library under a path of the tested origin. Used by the
// globe bench, the cruise bench's reference view and the e2e specs that hold our HiPS against it.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { projectRoot } from '../server/config';

export const ALADIN_DIRECTORY = path.join(projectRoot, 'node_modules', 'aladin-lite');

export interface AladinView {
  ra: number;
  dec: number;
  /** Aladin Lite's field of view, degrees (across the wider side). */
  fov: number;
  /** Aladin Lite's projection code: 'TAN' (gnomonic) or 'STG' (stereographic). */
  projection: 'TAN' | 'STG';
  /** The element's CSS size. */
  width: string;
  height: string;
  /** The HiPS opened, a path on the page's origin; the sky repository's HiPS when left out. */
  survey?: string;
}

/** The HTML of a page that opens Aladin Lite (imported from `${prefix}/aladin.js`) on `view`. */
export function aladinPage(prefix: string, view: AladinView): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Aladin Lite</title></head>
<body style="margin:0;background:#000;overflow:hidden">
<div id="aladin" style="width:${view.width};height:${view.height}"></div>
<script type="module">
  import A from '${prefix}/aladin.js';
  A.init.then(() => {
    window.aladin = A.aladin('#aladin', {
      survey: location.origin + '${view.survey ?? '/stellar-globe/static/hips/sky'}',
      hipsList: [],
      fov: ${view.fov},
      target: '${view.ra} ${view.dec}',
      cooFrame: 'ICRS',
      projection: '${view.projection}',
      showReticle: false, showFrame: false, showLayersControl: false, showGotoControl: false,
      showZoomControl: false, showFullscreenControl: false, showSimbadPointerControl: false,
      showCooGridControl: false, showProjectionControl: false, showSettingsControl: false,
      showShareControl: false, showStatusBar: false, showCooLocation: false, showFov: false,
    });
    window.aladinReady = true;
  });
</script></body></html>`;
}

/** Serves `${prefix}/aladin.html` (the page on `view`) and `${prefix}/aladin.js` to `page`. */
export async function routeAladin(page: Pick<Page, 'route'>, prefix: string, view: AladinView): Promise<void> {
  await page.route(`**${prefix}/aladin.html`, (route) =>
    route.fulfill({ contentType: 'text/html', body: aladinPage(prefix, view) }),
  );
  await page.route(`**${prefix}/aladin.js`, (route) =>
    route.fulfill({ contentType: 'text/javascript', path: path.join(ALADIN_DIRECTORY, 'dist', 'aladin.js') }),
  );
}
