// Deep links to a view: the hash route carries ra, dec (degrees) and fov (degrees) as query
// parameters, e.g. #/?ra=150.1163&dec=2.2058&fov=0.5, so a shared link opens the same view;
// a projection other than the default one is carried as mode=GNOMONIC or mode=FLOATING_EYE.
import { CAMERA_DEFAULTS, ProjectionMode, type CameraState } from '../../../globe/camera';

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

export function hashWithView(hash: string, state: CameraState): string {
  const route = hash.replace(/^#/, '') || '/';
  const [path, query = ''] = route.split('?');
  const parameters = new URLSearchParams(query);
  parameters.set('ra', (state.phi / DEGREE).toFixed(5));
  parameters.set('dec', (90 - state.theta / DEGREE).toFixed(5));
  parameters.set('fov', (state.fovy / DEGREE).toPrecision(4));
  if (state.mode === CAMERA_DEFAULTS.mode) parameters.delete('mode');
  else parameters.set('mode', state.mode);
  return `#${path}?${parameters.toString()}`;
}

/** The view in the address the page was opened with (a shared link, or a reload of the main screen). */
let openingView: Partial<CameraState> | null = typeof location === 'undefined' ? null : viewFromHash(location.hash);

/**
 * The opening view, once: the first screen that would move the camera on its own (the cruise going
 * to its first target) asks for it and keeps the view the address gave instead.
 */
export function takeOpeningView(): Partial<CameraState> | null {
  const view = openingView;
  openingView = null;
  return view && 'phi' in view ? view : null;
}
