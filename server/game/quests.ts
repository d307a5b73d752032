// Choosing the area of a new quest: the nearest not-done area of the active level, measured from
// where the ship is (the centre of the area of the user's latest quest in the course). A first
// quest, or one whose previous area is gone, starts at the level's first area in sailing order.
import { activeLevel, type LevelAreas } from './levels';
import { angularDistance, type SkyPoint } from '../../core/sky-points';

export interface AreaPosition {
  id: number;
  centre: SkyPoint;
}

/** Areas in the level's order; ties go to the earlier one. Undefined when all are done. */
export function nearestNotDoneArea<T extends AreaPosition>(
  areas: readonly T[],
  doneAreaIds: ReadonlySet<number>,
  from: SkyPoint | undefined,
): T | undefined {
  const open = areas.filter((area) => !doneAreaIds.has(area.id));
  if (!from) return open[0];
  let best: T | undefined;
  let bestDistance = Infinity;
  for (const area of open) {
    const distance = angularDistance(from, area.centre);
    if (distance < bestDistance) {
      best = area;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Where the next quest goes: the active level and its nearest not-done area from `ship`.
 * Undefined when every level of the course is done (the course is exhausted).
 */
export function nextQuestArea<A extends AreaPosition, L extends LevelAreas & { areas: readonly A[] }>(
  levels: readonly L[],
  doneAreaIds: ReadonlySet<number>,
  ship: SkyPoint | undefined,
): { level: L; area: A } | undefined {
  const level = activeLevel(levels, doneAreaIds);
  const area = level && nearestNotDoneArea(level.areas, doneAreaIds, ship);
  return level && area ? { level, area } : undefined;
}

export { NEW_GAME_COURSES } from '../../shared/enums';
