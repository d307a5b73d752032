// The globe behind the screens, loaded after the first paint: GlobeView and everything it
// reaches (src/globe, gl-matrix, the workers) is a chunk of its own (React.lazy), asked for only
// once the session is known and the screen it leads to (the login form, for a visitor) has been
// painted, so that the globe's code neither competes with the screen's for the line nor delays
// it; the form takes typing while the globe is on its way, and the canvas then fades in behind. The screens are rendered at once and never remounted when the
// globe arrives: useGlobe() is null until then. Meanwhile a 'Loading the sky' status sits where
// the camera indicator will appear, with the step the page is at and the files loaded so far
// (GlobeLoading.tsx). A browser without WebGL2 (the globe alerts and throws,
// viewer-spec §8) gets a readable page instead of the screens.
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Globe } from '../../../globe/Globe';
import { useSession } from '../../api/session';
import { GlobeContext, GlobePublisherContext, type GlobePublisher } from './GlobeContext';
import { GlobeLoading } from './GlobeLoading';
import { NoWebGlPage } from './NoWebGlPage';
// Read now, before any redirect: the globe opens on the view and layers of the address as opened.
import './openingHash';

const globeViewModule = () => import('./GlobeView');
const GlobeView = lazy(async () => ({ default: (await globeViewModule()).GlobeView }));

export function GlobeLoader({ children }: { children?: ReactNode }) {
  const [globe, setGlobe] = useState<Globe | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const publisher = useMemo<GlobePublisher>(() => ({ ready: setGlobe, failed: setFailure }), []);
  const sessionKnown = !useSession().isPending;
  const [asked, setAsked] = useState(false);
  // When the globe's chunk has arrived (the same module React.lazy waits for), for the status.
  const [codeLoaded, setCodeLoaded] = useState(false);
  useEffect(() => {
    if (!asked) return;
    let live = true;
    void globeViewModule().then(
      () => live && setCodeLoaded(true),
      () => undefined, // React.lazy's own import reports the failure
    );
    return () => {
      live = false;
    };
  }, [asked]);
  useEffect(() => {
    if (!sessionKnown) return;
    // The gate's redirect renders in this frame; the globe is asked for once it has been painted.
    let timer = 0;
    const frame = requestAnimationFrame(() => (timer = window.setTimeout(() => setAsked(true))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [sessionKnown]);
  if (failure !== null) return <NoWebGlPage cause={failure} />;
  return (
    <GlobeContext.Provider value={globe}>
      <GlobePublisherContext.Provider value={publisher}>
        <Suspense fallback={null}>{asked && <GlobeView />}</Suspense>
      </GlobePublisherContext.Provider>
      {!globe && <GlobeLoading done={{ session: sessionKnown, code: codeLoaded, globe: false }} />}
      {children}
    </GlobeContext.Provider>
  );
}
