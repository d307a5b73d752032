// Per-user level status (ARCHITECTURE.md, the game model): a level is unlocked when every one of
// its areas is done, the first level (in sailing order) that is not is active, the rest locked.
// The status is derived from the user's finished quests rather than stored, so a new game (which
// deletes the quests) and a re-seed that adds areas both leave it consistent by construction.
import type { LevelStatus } from '../../shared/enums';

export interface LevelAreas {
  id: number;
  areaIds: readonly number[];
}

export function levelStatuses(
  levels: readonly LevelAreas[],
  doneAreaIds: ReadonlySet<number>,
): Map<number, LevelStatus> {
  const statuses = new Map<number, LevelStatus>();
  let activeFound = false;
  for (const level of levels) {
    const done = level.areaIds.every((id) => doneAreaIds.has(id));
    if (done) statuses.set(level.id, 'unlocked');
    else if (!activeFound) {
      statuses.set(level.id, 'active');
      activeFound = true;
    } else statuses.set(level.id, 'locked');
  }
  return statuses;
}

/** The level being sailed, or undefined when the course is exhausted. */
export function activeLevel<T extends LevelAreas>(
  levels: readonly T[],
  doneAreaIds: ReadonlySet<number>,
): T | undefined {
  const statuses = levelStatuses(levels, doneAreaIds);
  return levels.find((level) => statuses.get(level.id) === 'active');
}

/**
 * Whether finishing `areaId` completes its level: every area of the level is done with it and
 * was not without it (the moment a level_unlocked notification is due).
 */
export function completesLevel(level: LevelAreas, doneBefore: ReadonlySet<number>, areaId: number): boolean {
  if (doneBefore.has(areaId) || !level.areaIds.includes(areaId)) return false;
  return level.areaIds.every((id) => id === areaId || doneBefore.has(id));
}
