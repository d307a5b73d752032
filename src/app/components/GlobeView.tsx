// The thin React wrapper around src/globe (ARCHITECTURE.md: the globe never imports React).
// It owns one Globe for the lifetime of the canvas and adds the base layers.
import { useEffect, useRef } from 'react';
import { dataRepositoryUrl } from '../../core/dataRepository';
import { Globe } from '../../globe/Globe';
import { GridLayer } from '../../globe/layers/grid';
import { StarLayer } from '../../globe/layers/stars';

function dataHost(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="galaxy-cruise-data-host"]')?.content || null;
}

export function GlobeView({ retina = true }: { retina?: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const globe = new Globe(canvas.current, { retina });
    globe.addLayer(new GridLayer());
    globe.addLayer(new StarLayer(dataRepositoryUrl(location, dataHost()), () => globe.requestFrame()));
    return () => globe.release();
  }, [retina]);
  return <canvas ref={canvas} className="globe-canvas" data-testid="globe-canvas" />;
}
