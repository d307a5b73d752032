// The mypage's cruise map (application-spec §2): a small globe of its own with the coordinate
// grid and the level outlines of one course, coloured by status (active orange, locked darker
// orange, unlocked cyan, line width 0.01) with the map labels (season2's islands and
// archipelagos; the simulation level's 11 divisions). The camera starts on the active level, where
// the volunteer sails now (the course's levels lie far apart on the sky), and the map can be
// dragged and zoomed like the main globe to visit the others. It is a
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

const DEGREE = Math.PI / 180;

/** The centre of the outlines' points and a field of view that holds them all. */
export function mapView(levels: readonly LevelOutline[]): { theta: number; phi: number; fovy: number } {
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
    fovy: Math.min(2, Math.max(10 * DEGREE, spread * 2.6)),
  };
}

export function CruiseMap({ levels, courseName }: { levels: readonly LevelSummary[]; courseName: string }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [globe, setGlobe] = useState<{ globe: Globe; layer: LevelOutlineLayer } | null>(null);
  const details = useQueries({
    queries: levels.map((level) => ({ queryKey: ['level', level.id], queryFn: () => fetchLevel(level.id) })),
    combine: (results) => (results.every((query) => query.data) ? results.map((query) => query.data!) : null),
  });
  const outlines = useMemo<LevelOutline[] | null>(() => {
    if (!details) return null;
    const locale = currentLocale();
    return levels.map((level, index) => ({
      status: level.status,
      outlines: details[index].areas.flatMap((area) => area.outlines),
      labels: level.labels.map((label) => ({ text: label.name[locale], position: [label.ra, label.dec] })),
    }));
  }, [details, levels]);

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
    const active = outlines.filter((level) => level.status === 'active');
    globe.globe.setCamera(mapView(active.length > 0 ? active : outlines));
  }, [globe, outlines]);

  const labelCount = levels.reduce((sum, level) => sum + level.labels.length, 0);
  return (
    <figure className="cruise-map" data-testid="cruise-map" data-labels={labelCount}>
      <div className="cruise-map-frame">
        <canvas
          ref={canvas}
          className="cruise-map-canvas"
          tabIndex={0}
          aria-label={t('mypage.map.label', { course: courseName })}
        />
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
      </figcaption>
    </figure>
  );
}
