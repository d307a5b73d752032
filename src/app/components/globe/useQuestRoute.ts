// The quest's route on the globe: the path overlay of viewer-spec §1 (its default colour,
// application-spec §9) through the quest's targets in the quest's order, the order the rudder
// ("Next galaxy") sails them. It is shown with the target markers (the spacebar hides both).
// Each leg runs from ring to ring, stopping ROUTE_GAP px short of the targets it joins (clear of
// the largest marker), so that no leg runs over those galaxies; legs too short for that (the
// quest seen from far off) are left out.
import { useEffect, useMemo } from 'react';
import type { Globe } from '../../../globe/Globe';
import { PathLayer, type PathPoint } from '../../../globe/layers/path';
import { TARGET_STYLES } from '../../../globe/layers/targets';
import { useGlobeLayer } from './useGlobeLayer';

/** Pixels left clear around each target: the largest marker's outer radius and 3 px. */
export const ROUTE_GAP = Math.max(...Object.values(TARGET_STYLES).map(({ radius, stroke }) => radius + stroke)) + 3;

/** The route through `targets` in their order, as the path overlay's polylines (none for fewer than 2). */
export function questRoute(targets: readonly { ra: number; dec: number }[]): PathPoint[][] {
  if (targets.length < 2) return [];
  return [targets.map(({ ra, dec }): PathPoint => [ra, dec])];
}

/** Mounts the route's path overlay on `globe` while the component lives. */
export function useQuestRoute(
  globe: Globe | null,
  targets: readonly { ra: number; dec: number }[] | undefined,
  shown: boolean,
): void {
  const layer = useGlobeLayer(globe, () => new PathLayer({ vertexGap: ROUTE_GAP }));
  const route = useMemo(() => questRoute(targets ?? []), [targets]);
  useEffect(() => {
    layer.current?.update({ paths: shown ? route : [] });
  }, [globe, layer, route, shown]);
}
