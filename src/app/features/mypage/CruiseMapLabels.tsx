// The cruise map's labels, drawn as text over its canvas and placed by mapLabels.ts so that none
// lies over another: placed again whenever the map's camera moves or the map changes size. A
// label with no free spot is clipped to nothing on screen but stays in the list, so a screen
// reader still hears every name. Positions are written straight to the elements, not through
// React state: a drag moves the camera every frame.
import { useEffect, useRef } from 'react';
import type { Globe } from '../../../globe/Globe';
import { canvasPoint, placeLabels } from './mapLabels';

export interface MapLabel {
  text: string;
  ra: number;
  dec: number;
}

/** `labels` in order of priority: the first ones keep their spot when the map is crowded. */
export function CruiseMapLabels({ globe, labels }: { globe: Globe | null; labels: readonly MapLabel[] }) {
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    const element = list.current;
    if (!globe || !element) return;
    let live = true;
    const place = () => {
      if (!live) return;
      const { width, height } = element.getBoundingClientRect();
      const items = [...element.children] as HTMLElement[];
      const boxes = placeLabels(
        labels.map((label, index) => {
          const point = canvasPoint(globe.camera, width, height, label.ra, label.dec);
          return point && { ...point, width: items[index].offsetWidth, height: items[index].offsetHeight };
        }),
        width,
        height,
      );
      boxes.forEach((box, index) => {
        const item = items[index];
        item.dataset.placed = String(box !== null);
        if (box) item.style.transform = `translate(${box.left}px, ${box.top}px)`;
      });
    };
    place();
    const stop = globe.onCameraChange(place);
    const resized = new ResizeObserver(place);
    resized.observe(element);
    // The labels' widths change once the web font has arrived.
    void document.fonts.ready.then(place);
    return () => {
      live = false;
      stop();
      resized.disconnect();
    };
  }, [globe, labels]);

  return (
    <ul className="cruise-map-labels" ref={list} data-testid="cruise-map-labels">
      {labels.map((label, index) => (
        <li key={index} className="cruise-map-label" data-placed="false">
          {label.text}
        </li>
      ))}
    </ul>
  );
}
