// The mypage's cruise map (application-spec §2): a small globe of its own with the coordinate
// grid and the level outlines of one course, coloured by status (active orange, locked darker
// orange, unlocked cyan) with the map labels (season2's islands and archipelagos; the simulation
// level's 11 divisions), placed over the canvas so that none lies over another
// (CruiseMapLabels.tsx), the labels of the active level (or the one finished last) first. The map
// opens on the whole course: a season's levels lie round the sky, so its field may open wider
// than the main globe's, a stereographic planisphere reaching 100° from its centre. The outlines
// are drawn at the lines' 3 px minimum rather than the spec's 0.01 radians, which is wider than an
// area and filled a level into one block of colour; so each area's edge shows, and neighbours are
// told apart once zoomed in. The map can be dragged and zoomed like the main globe to visit the
// levels; the wheel zooms it only with Ctrl (or ⌘), otherwise it scrolls the dialog the map
// stands in, which is what a wheel over a page does. It is a second Globe rather than the main
// one, so that the mypage can stand over the cruise without moving the volunteer's view.
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LevelSummary } from '../../../../shared/api';
import { Globe } from '../../../globe/Globe';
import { GridLayer } from '../../../globe/layers/grid';
import { LEVEL_OUTLINE_THIN_WIDTH, LevelOutlineLayer, type LevelOutline } from '../../../globe/layers/level-outlines';
import { Spinner } from '../../components/Spinner';
import { currentLocale } from '../../i18n';
import { fetchLevel } from '../../api/quests';
import { CruiseMapLabels, type MapLabel } from './CruiseMapLabels';

const DEGREE = Math.PI / 180;
/**
 * The narrowest opening field: a level of the small sky is under a degree across, and at the
 * 10° this once was its outline was a dot with its labels piled on one another.
 */
const MIN_MAP_FOVY = 3 * DEGREE;
/**
 * The map's widest field: 200°, the screen's half-height 100° from its centre, so that a course
 * whose levels lie round the sky (season2's from declination −5° to 55°) fits in one view
 * centred near the pole. Stereographic, the projection stays finite up to 180° from the centre.
 */
export const MAP_MAX_FOVY = 200 * DEGREE;

/** Steps of the search for the centre of the outlines (its error falls as 1/√steps). */
const CENTRE_STEPS = 400;

/**
 * The centre of the outlines' points and a field of view that holds them all, at least `minFovy`
 * (the small map's narrowest opening field unless told) and at most `maxFovy` (the main globe's).
 */
export function mapView(
  levels: readonly LevelOutline[],
  minFovy = MIN_MAP_FOVY,
  maxFovy = 2,
): { theta: number; phi: number; fovy: number } {
  const points = levels.flatMap((level) => level.outlines.flat());
  if (points.length === 0) return { theta: Math.PI / 2, phi: 0, fovy: 2 };
  const vectors = points.map(([ra, dec]) => {
    const [a, d] = [ra * DEGREE, dec * DEGREE];
    return [Math.cos(d) * Math.cos(a), Math.cos(d) * Math.sin(a), Math.sin(d)] as const;
  });
  // The centre of the smallest cap that holds every point (Bădoiu and Clarkson's iteration: step
  // towards the farthest point by 1/(k + 1)), from their mean: a course's levels round the sky
  // have their mean far off the pole that holds them all.
  const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const normalized = (v: readonly number[]) => {
    const length = Math.hypot(v[0], v[1], v[2]) || 1;
    return v.map((value) => value / length);
  };
  let centre = normalized(vectors.reduce((acc, v) => [acc[0] + v[0], acc[1] + v[1], acc[2] + v[2]], [0, 0, 0]));
  const farthest = () => vectors.reduce((far, v) => (dot(v, centre) < dot(far, centre) ? v : far));
  for (let k = 1; k <= CENTRE_STEPS; k++) {
    const far = farthest();
    centre = normalized(centre.map((value, i) => value + (far[i] - value) / (k + 1)));
  }
  const spread = Math.acos(Math.max(-1, Math.min(1, dot(farthest(), centre))));
  return {
    theta: Math.acos(Math.max(-1, Math.min(1, centre[2]))),
    phi: Math.atan2(centre[1], centre[0]),
    fovy: Math.min(maxFovy, Math.max(minFovy, spread * 2.6)),
  };
}

/**
 * The levels where the volunteer sails: the active ones, else the one finished last, else all of
 * them. Their labels keep their spot first on the map; the course overview flies to them.
 */
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
    created.camera.max_fovy = MAP_MAX_FOVY;
    const layer = new LevelOutlineLayer({ width: LEVEL_OUTLINE_THIN_WIDTH });
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
    globe.globe.setCamera(mapView(outlines, MIN_MAP_FOVY, MAP_MAX_FOVY));
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
