// Shares the one Globe with the React components that sit beside the canvas (camera
// indicator, later the answer form and markers). The globe itself never imports React.
import { createContext, useCallback, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { CameraState } from '../../../globe/camera';
import type { Globe } from '../../../globe/Globe';
import { throttle } from '../../../../core/throttle';

export const GlobeContext = createContext<Globe | null>(null);

/**
 * How GlobeView, loaded after the first paint (GlobeLoader.tsx), hands its globe to the provider
 * above the screens: the globe once made (null again when released), or why it could not be made.
 */
export interface GlobePublisher {
  ready(globe: Globe | null): void;
  failed(cause: string): void;
}

export const GlobePublisherContext = createContext<GlobePublisher | null>(null);

export function useGlobePublisher(): GlobePublisher {
  const publisher = useContext(GlobePublisherContext);
  if (!publisher) throw new Error('GlobeView needs a <GlobeLoader> above it');
  return publisher;
}

export function useGlobe(): Globe | null {
  return useContext(GlobeContext);
}

/** The camera state, updated at most every `intervalMs` (application-spec §9: 200 ms). */
export function useCameraState(intervalMs = 200): CameraState | null {
  const globe = useGlobe();
  const [state, setState] = useState<CameraState | null>(() => globe?.camera.state() ?? null);
  useEffect(() => {
    if (!globe) return;
    const update = throttle(setState, intervalMs);
    update(globe.camera.state());
    const unsubscribe = globe.onCameraChange(update);
    return () => {
      unsubscribe();
      update.cancel();
    };
  }, [globe, intervalMs]);
  return state;
}

/**
 * Whether the camera is on a jump (Globe.jumping): read whenever the camera moves, so that the
 * component renders again only when a jump starts or ends, not every frame.
 */
export function useJumping(): boolean {
  const globe = useGlobe();
  const subscribe = useCallback((changed: () => void) => globe?.onCameraChange(changed) ?? (() => {}), [globe]);
  return useSyncExternalStore(subscribe, () => globe?.jumping ?? false);
}
