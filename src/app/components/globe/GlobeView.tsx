// The thin React wrapper around src/globe (ARCHITECTURE.md: the globe never imports React).
// It owns one Globe for the lifetime of the canvas, adds the base layers and shares the globe
// through GlobeContext. On the main route the view is kept in the address (viewLink.ts).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { dataRepositoryUrl } from '../../../core/dataRepository';
import { throttle } from '../../../core/throttle';
import { Globe } from '../../../globe/Globe';
import { GridLayer } from '../../../globe/layers/grid';
import { StarLayer } from '../../../globe/layers/stars';
import { APPLICATION_SURVEY_OPTIONS, SurveyLayer } from '../../../globe/layers/survey';
import { GlobeContext } from './GlobeContext';
import { hashWithView, viewFromHash } from './viewLink';

function dataHost(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="galaxy-cruise-data-host"]')?.content || null;
}

/** Routes whose address follows the view (the login tour must not rewrite its own link). */
function followsView(hash: string): boolean {
  const path = hash.replace(/^#/, '').split('?')[0] || '/';
  return path === '/';
}

export function GlobeView({ retina = true, children }: { retina?: boolean; children?: ReactNode }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [globe, setGlobe] = useState<Globe | null>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const created = new Globe(canvas.current, { retina });
    created.setCamera(viewFromHash(location.hash));
    created.addLayer(new GridLayer());
    const dataRepository = dataRepositoryUrl(location, dataHost());
    created.addLayer(new StarLayer(dataRepository));
    // The three surveys' tiles with the application's colour settings (viewer-spec §3).
    for (const survey of ['wide', 'dud', 'simulation'])
      created.addLayer(new SurveyLayer({ ...APPLICATION_SURVEY_OPTIONS, baseUrl: `${dataRepository}/${survey}` }));
    const keepLink = throttle(() => {
      if (followsView(location.hash))
        history.replaceState(history.state, '', hashWithView(location.hash, created.camera.state()));
    }, 200);
    const unsubscribe = created.onCameraChange(keepLink);
    setGlobe(created);
    return () => {
      unsubscribe();
      keepLink.cancel();
      setGlobe(null);
      created.release();
    };
  }, [retina]);
  return (
    <GlobeContext.Provider value={globe}>
      <canvas
        ref={canvas}
        className="globe-canvas"
        data-testid="globe-canvas"
        tabIndex={0}
        aria-label={t('globe.label')}
      />
      {children}
    </GlobeContext.Provider>
  );
}
