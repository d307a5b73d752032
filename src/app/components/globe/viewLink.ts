// Deep links to a view: the hash route carries ra, dec (degrees) and fov (degrees) as query
// parameters, e.g. #/?ra=150.1163&dec=2.2058&fov=0.5, so a shared link opens the same view;
// a projection other than the default one is carried as mode=GNOMONIC or mode=FLOATING_EYE.
// When some of the globe's layers are hidden, layers= lists the names of those drawn
// (layers=grid,stars,survey): a link opens with the globe's other layers hidden; with every
// layer drawn the parameter is left out, so the usual link stays short.
import { CAMERA_DEFAULTS, ProjectionMode, type CameraState } from '../../../globe/camera';
import type { Globe } from '../../../globe/Globe';

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

/** The query parameters of a link that name a view; the rest of a query (course=) is the screen's. */
const VIEW_PARAMETERS = ['ra', 'dec', 'fov', 'mode', 'layers'] as const;

/** Whether the hash or query `hash` names a view: a link's right ascension at least. */
export function namesView(hash: string): boolean {
  return viewFromHash(hash).phi !== undefined;
}

/**
 * `path` (a route, with a query or not) with the view parameters of `search` (the query of the
 * address a visitor came from) set on it, replacing its own: the login sends a visitor to the
 * recommended course, and a deep link's view must survive the trip (application-spec §2).
 */
export function withLinkedView(path: string, search: string): string {
  if (!namesView(search)) return path;
  const [route, query = ''] = path.split('?');
  const parameters = new URLSearchParams(query);
  const linked = new URLSearchParams(search.includes('?') ? search.slice(search.indexOf('?') + 1) : search);
  for (const name of VIEW_PARAMETERS) {
    const value = linked.get(name);
    if (value === null) parameters.delete(name);
    else parameters.set(name, value);
  }
  return `${route}?${parameters.toString().replace(/%2C/g, ',')}`;
}

/** Angles closer than this (radians) are the same view: a link carries 1e-5 degrees. */
const SAME_ANGLE = 1e-6;
/** Fields of view within this ratio are the same: a link carries four significant digits. */
const SAME_FOVY = 1e-3;

/** Whether the camera at `state` stands elsewhere than `view` (a link's view) says. */
export function viewDiffers(state: CameraState, view: Partial<CameraState>): boolean {
  const turn = 2 * Math.PI;
  const phi =
    view.phi === undefined ? 0 : Math.abs(((((view.phi - state.phi) % turn) + turn + Math.PI) % turn) - Math.PI);
  const theta = view.theta === undefined ? 0 : Math.abs(view.theta - state.theta);
  const fovy = view.fovy === undefined ? 0 : Math.abs(view.fovy / state.fovy - 1);
  return (
    phi > SAME_ANGLE || theta > SAME_ANGLE || fovy > SAME_FOVY || (view.mode !== undefined && view.mode !== state.mode)
  );
}
