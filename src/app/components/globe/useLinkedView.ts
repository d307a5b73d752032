// The main screen follows the view its address names: a deep link kept through the login, an
// address changed by hand (location.hash = '#/?ra=…') or the browser's back button moves the
// camera there. GlobeView writes the camera's own view back into the address with
// history.replaceState, which the router does not hear, so only a navigation brings a view here,
// never the camera's own motion; and a view the camera already shows (a reload) moves nothing.
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useGlobe } from './GlobeContext';
import { showLinkedLayers, viewDiffers, viewFromHash } from './viewLink';

export function useLinkedView(): void {
  const globe = useGlobe();
  const { search } = useLocation();
  useEffect(() => {
    if (!globe) return;
    const view = viewFromHash(search);
    if (view.phi === undefined) return;
    showLinkedLayers(globe, search);
    const state = globe.camera.state();
    if (!viewDiffers(state, view)) return;
    if (view.mode !== undefined && view.mode !== state.mode) globe.setCamera({ mode: view.mode });
    globe.jumpTo({ phi: view.phi, theta: view.theta ?? state.theta, fovy: view.fovy });
  }, [globe, search]);
}
