// The mypage's cruise map (application-spec §2): a small globe of its own with the coordinate
// grid and the level outlines of one course, coloured by status (active orange, locked darker
// orange, unlocked cyan, line width 0.01) with the map labels (season2's islands and
// archipelagos; the simulation level's 11 divisions), placed over the canvas so that none lies
// over another (CruiseMapLabels.tsx), the labels of the levels the map opens on first. The camera starts on the active level, where
// the volunteer sails now, or after a finished course on the level finished last: the course's
// levels lie far apart on the sky, and a view of them all is centred between them (near the pole)
// at a field so wide that the outlines vanish and the labels pile up. The map can be dragged and
// zoomed like the main globe to visit the others; the wheel zooms it only with Ctrl (or ⌘),
// otherwise it scrolls the dialog the map stands in, which is what a wheel over a page does. It is a
// second Globe rather than the main one, so that the mypage can stand over the cruise without
// moving the volunteer's view.
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LevelSummary } from '../../../shared/api';
import { Globe } from '../../../globe/Globe';
import { GridLayer } from '../../../globe/layers/grid';
import { LevelOutlineLayer, type LevelOutline } from '../../../globe/layers/level-outlines';
import { Spinner } from '../../components/Spinner';
import { currentLocale } from '../../i18n';
import { fetchLevel } from '../cruise/useQuest';
import { CruiseMapLabels, type MapLabel } from './CruiseMapLabels';

const DEGREE = Math.PI / 180;
/**
 * The narrowest opening field: a level of the small sky is under a degree across, and at the
 * 10° this once was its outline was a dot with its labels piled on one another.
 */
const MIN_MAP_FOVY = 3 * DEGREE;

/**
 * The centre of the outlines' points and a field of view that holds them all, at least `minFovy`
 * (the small map's narrowest opening field unless told).
 */
export function mapView(
  levels: readonly LevelOutline[],
  minFovy = MIN_MAP_FOVY,
): { theta: number; phi: number; fovy: number } {
  const points = levels.flatMap((level) => level.outlines.flat());
  if (points.length === 0) return { theta: Math.PI / 2, phi: 0, fovy: 2 };
  const vectors = points.map(([ra, dec]) => {
    const [a, d] = [ra * DEGREE, dec * DEGREE];
    return [Math.cos(d) * Math.cos(a), Math.cos(d) * Math.sin(a), Math.sin(d)] as const;
  });
  const sum = vectors.reduce((acc, v) => [acc[0] + v[0], acc[1] + v[1], acc[2] + v[2]], [0, 0, 0]);
  const length = Math.hypot(...sum) || 1;
  const centre = sum.map((value) => value / length);
  const spread = Math.max(
    ...vectors.map((v) => Math.acos(Math.min(1, v[0] * centre[0] + v[1] * centre[1] + v[2] * centre[2]))),
  );
  return {
    theta: Math.acos(Math.max(-1, Math.min(1, centre[2]))),
    phi: Math.atan2(centre[1], centre[0]),
    fovy: Math.min(2, Math.max(minFovy, spread * 2.6)),
  };
}

/** The levels the map opens on: the active ones, else the one finished last, else all of them. */
export function mapFocus(levels: readonly LevelOutline[]): readonly LevelOutline[] {
  const active = levels.filter((level) => level.status === 'active');
  if (active.length > 0) return active;
  const lastUnlocked = levels.findLast((level) => level.status === 'unlocked');
  return lastUnlocked ? [lastUnlocked] : levels;
}

/**
 * A wheel turned over the map without Ctrl or ⌘ goes to the page (the dialog scrolls) and not to
 * the globe: listened to in the capture phase on the map's frame, it stops before the canvas.
 */
function passWheelToPage(event: WheelEvent): void {
  if (!event.ctrlKey && !event.metaKey) event.stopPropagation();
}

export function CruiseMap({ levels, courseName }: { levels: readonly LevelSummary[]; courseName: string }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [globe, setGlobe] = useState<{ globe: Globe; layer: LevelOutlineLayer } | null>(null);
  const details = useQueries({
    queries: levels.map((level) => ({ queryKey: ['level', level.id], queryFn: () => fetchLevel(level.id) })),
    combine: (results) => (results.every((query) => query.data) ? results.map((query) => query.data!) : null),
  });
  const outlines = useMemo<LevelOutline[] | null>(() => {
    if (!details) return null;
    return levels.map((level, index) => ({
      status: level.status,
      outlines: details[index].areas.flatMap((area) => area.outlines),
    }));
  }, [details, levels]);
  // The labels of the levels the map opens on keep their spot first, then the others in order.
  const labels = useMemo<MapLabel[]>(() => {
    if (!outlines) return [];
    const locale = currentLocale();
    const focus = new Set(mapFocus(outlines));
    const first = levels.filter((_, index) => focus.has(outlines[index]));
    const rest = levels.filter((_, index) => !focus.has(outlines[index]));
    return [...first, ...rest].flatMap((level) =>
      level.labels.map((label) => ({ text: label.name[locale], ra: label.ra, dec: label.dec })),
    );
  }, [outlines, levels]);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    element.addEventListener('wheel', passWheelToPage, { capture: true });
    return () => element.removeEventListener('wheel', passWheelToPage, { capture: true });
  }, []);

  useEffect(() => {
    if (!canvas.current) return;
    const created = new Globe(canvas.current, { retina: true });
    const layer = new LevelOutlineLayer();
    created.addLayer(new GridLayer());
    created.addLayer(layer);
    setGlobe({ globe: created, layer });
    return () => {
      setGlobe(null);
      created.release();
    };
  }, []);

  useEffect(() => {
    if (!globe || !outlines) return;
    globe.layer.update({ levels: outlines });
    globe.globe.setCamera(mapView(mapFocus(outlines)));
  }, [globe, outlines]);

  const labelCount = levels.reduce((sum, level) => sum + level.labels.length, 0);
  return (
    <figure className="cruise-map" data-testid="cruise-map" data-labels={labelCount}>
      <div className="cruise-map-frame" ref={frame}>
        <canvas
          ref={canvas}
          className="cruise-map-canvas"
          tabIndex={0}
          aria-label={t('mypage.map.label', { course: courseName })}
        />
        <CruiseMapLabels globe={globe?.globe ?? null} labels={labels} />
        {!outlines && (
          <div className="cruise-map-loading">
            <Spinner text={t('mypage.map.loading')} />
          </div>
        )}
      </div>
      <figcaption className="cruise-map-legend">
        {(['active', 'locked', 'unlocked'] as const).map((status) => (
          <span key={status} className="cruise-map-key" data-status={status}>
            {t(`mypage.map.legend.${status}`)}
          </span>
        ))}
        <span className="cruise-map-hint">{t('mypage.map.zoomHint')}</span>
      </figcaption>
    </figure>
  );
}
