// A finished course on the main globe (issue 33): with no galaxy left there is no target marker,
// and the globe stood on the last galaxy answered with nothing to show for the voyage. So the
// course's level outlines are drawn (all cyan, as the voyage log's map draws levels finished),
// and the camera flies out to the level finished last, framed whole as on the voyage log's map
// (mapFocus, mapView), once per course and page. A screen opened on a view (a shared link, a
// reload) stays on it: the outlines are there to see wherever the volunteer looks.
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { LevelDetail } from '../../../../shared/api';
import type { Globe } from '../../../globe/Globe';
import { LEVEL_OUTLINE_THIN_WIDTH, LevelOutlineLayer, type LevelOutline } from '../../../globe/layers/level-outlines';
import { mapFocus, mapView } from '../mypage/CruiseMap';
import { fetchLevel, useLevels } from '../../api/quests';

/**
 * The narrowest field the camera flies out to, radians: 0.05°, a few times the view of one
 * galaxy. The level is framed whole (mapView); the small map's 3° made a level of the test sky
 * (a twentieth of a degree across) a dot on the main screen.
 */
export const OVERVIEW_MIN_FOVY = (0.05 * Math.PI) / 180;

/**
 * How much wider the field is than the small map's framing: the main screen's header and bottom
 * column (the course-complete panel) stand over the sky's top and bottom, and the outline stays
 * clear of them.
 */
export const OVERVIEW_ROOM = 1.4;

/** Every level's details once all have arrived; a function of its own, so that it reruns only with them. */
function allLevels(results: readonly { data?: LevelDetail }[]): LevelDetail[] | null {
  return results.length > 0 && results.every((query) => query.data) ? results.map((query) => query.data!) : null;
}

export function useCourseOverview(
  globe: Globe | null,
  course: string,
  finished: boolean,
  openedOnView: { readonly current: boolean },
  durationMs: number,
): void {
  const levels = useLevels(course).data;
  const details = useQueries({
    queries: (finished ? (levels ?? []) : []).map((level) => ({
      queryKey: ['level', level.id],
      queryFn: () => fetchLevel(level.id),
    })),
    combine: allLevels,
  });
  const outlines = useMemo<LevelOutline[] | null>(
    () =>
      finished && levels && details
        ? levels.map((level, index) => ({
            status: level.status,
            outlines: details[index].areas.flatMap((area) => area.outlines),
          }))
        : null,
    [finished, levels, details],
  );

  useEffect(() => {
    if (!globe || !outlines) return;
    const layer = new LevelOutlineLayer({ levels: outlines, width: LEVEL_OUTLINE_THIN_WIDTH });
    globe.addLayer(layer);
    globe.requestFrame();
    return () => {
      globe.removeLayer(layer);
      globe.requestFrame();
    };
  }, [globe, outlines]);

  const flown = useRef<string | null>(null);
  useEffect(() => {
    if (!globe || !outlines || flown.current === course) return;
    flown.current = course;
    if (openedOnView.current) return;
    const view = mapView(mapFocus(outlines), OVERVIEW_MIN_FOVY);
    globe.jumpTo({ ...view, fovy: view.fovy * OVERVIEW_ROOM }, { duration: durationMs });
  }, [globe, outlines, course, openedOnView, durationMs]);
}
