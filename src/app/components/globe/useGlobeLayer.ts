// A layer of the globe for as long as the component that wants it lives: made when the globe
// exists, removed when the component goes (or the globe changes). The component updates it
// through the returned ref.
import { useEffect, useRef, type MutableRefObject } from 'react';
import type { Globe } from '../../../globe/Globe';
import type { Layer } from '../../../globe/layers/layer';

export function useGlobeLayer<L extends Layer>(globe: Globe | null, create: () => L): MutableRefObject<L | null> {
  const layer = useRef<L | null>(null);
  const made = useRef(create);
  useEffect(() => {
    if (!globe) return;
    const created = made.current();
    globe.addLayer(created);
    layer.current = created;
    return () => {
      globe.removeLayer(created);
      layer.current = null;
    };
  }, [globe]);
  return layer;
}
