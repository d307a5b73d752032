// Deep links to a view: the hash route carries ra, dec (degrees) and fov (degrees) as query
// parameters, e.g. #/?ra=150.1163&dec=2.2058&fov=0.5, so a shared link opens the same view;
// a projection other than the default one is carried as mode=GNOMONIC or mode=FLOATING_EYE.
// When some of the globe's layers are hidden, layers= lists the names of those drawn
// (layers=grid,stars,survey): a link opens with the globe's other layers hidden; with every
// layer drawn the parameter is left out, so the usual link stays short.
import { CAMERA_DEFAULTS, ProjectionMode, type CameraState } from '../../../globe/camera';
import type { Globe } from '../../../globe/Globe';
import { openingHash } from './openingHash';

const DEGREE = Math.PI / 180;

export function viewFromHash(hash: string): Partial<CameraState> {
  const query = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '';
  const parameters = new URLSearchParams(query);
  const view: Partial<CameraState> = {};
  const number = (name: string) => {
    const text = parameters.get(name);
    const value = text === null || text.trim() === '' ? NaN : Number(text);
    return Number.isFinite(value) ? value : undefined;
  };
  const ra = number('ra');
  const dec = number('dec');
  const fov = number('fov');
  if (ra !== undefined) view.phi = ra * DEGREE;
  if (dec !== undefined && Math.abs(dec) <= 90) view.theta = (90 - dec) * DEGREE;
  if (fov !== undefined && fov > 0) view.fovy = fov * DEGREE;
  const mode = parameters.get('mode');
  if (mode && Object.values<string>(ProjectionMode).includes(mode)) view.mode = mode as ProjectionMode;
  return view;
}

/** A layer's name in a link: what the layers' `name`s are made of. */
const LAYER_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** The layers a link asks to draw, or null when it does not say (every layer is drawn). */
export function layersFromHash(hash: string): string[] | null {
  const query = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '';
  const text = new URLSearchParams(query).get('layers');
  if (text === null) return null;
  return [...new Set(text.split(',').filter((name) => LAYER_NAME.test(name)))];
}

/**
 * `hash` with the camera's view, and with `layers` (the names drawn) when some layer is hidden;
 * null leaves the layers out of the link, as when every layer is drawn.
 */
export function hashWithView(hash: string, state: CameraState, layers: readonly string[] | null = null): string {
  const route = hash.replace(/^#/, '') || '/';
  const [path, query = ''] = route.split('?');
  const parameters = new URLSearchParams(query);
  parameters.set('ra', (state.phi / DEGREE).toFixed(5));
  parameters.set('dec', (90 - state.theta / DEGREE).toFixed(5));
  parameters.set('fov', (state.fovy / DEGREE).toPrecision(4));
  if (state.mode === CAMERA_DEFAULTS.mode) parameters.delete('mode');
  else parameters.set('mode', state.mode);
  if (layers === null) parameters.delete('layers');
  else parameters.set('layers', layers.filter((name) => LAYER_NAME.test(name)).join(','));
  // A comma needs no escape in a query (RFC 3986's sub-delims): the layers stay readable.
  return `#${path}?${parameters.toString().replace(/%2C/g, ',')}`;
}

type LayeredGlobe = Pick<Globe, 'layerNames' | 'visibleLayers' | 'setLayerVisible'>;

/** What a link says of `globe`'s layers: the names drawn, or null when every layer is drawn. */
export function linkedLayers(globe: LayeredGlobe): string[] | null {
  const visible = globe.visibleLayers();
  return visible.length === globe.layerNames().length ? null : visible;
}

/** Draws the layers the link `hash` names and hides the globe's others; a link without layers= changes nothing. */
export function showLinkedLayers(globe: LayeredGlobe, hash: string): void {
  const layers = layersFromHash(hash);
  if (layers === null) return;
  for (const name of globe.layerNames()) globe.setLayerVisible(name, layers.includes(name));
}

/** The view in the address the page was opened with (a shared link, or a reload of the main screen). */
let openingView: Partial<CameraState> | null = viewFromHash(openingHash);

/**
 * The opening view, once: the first screen that would move the camera on its own (the cruise going
 * to its first target) asks for it and keeps the view the address gave instead.
 */
export function takeOpeningView(): Partial<CameraState> | null {
  const view = openingView;
  openingView = null;
  return view && 'phi' in view ? view : null;
}
