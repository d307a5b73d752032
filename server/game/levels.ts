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
    if (passedLevel(level, doneAreaIds)) statuses.set(level.id, 'unlocked');
    else if (!activeFound) {
      statuses.set(level.id, 'active');
      activeFound = true;
    } else statuses.set(level.id, 'locked');
  }
  return statuses;
}

/** Whether every area of `level` is done: the level is unlocked. */
function passedLevel(level: LevelAreas, doneAreaIds: ReadonlySet<number>): boolean {
  return level.areaIds.every((id) => doneAreaIds.has(id));
}

/**
 * The index of the level being sailed, -1 when the course is exhausted: the first not passed,
 * found without looking past it (a course may have thousands of levels).
 */
export function activeLevelIndex(levels: readonly LevelAreas[], doneAreaIds: ReadonlySet<number>): number {
  return levels.findIndex((level) => !passedLevel(level, doneAreaIds));
}

/** The level being sailed, or undefined when the course is exhausted. */
export function activeLevel<T extends LevelAreas>(
  levels: readonly T[],
  doneAreaIds: ReadonlySet<number>,
): T | undefined {
  const index = activeLevelIndex(levels, doneAreaIds);
  return index < 0 ? undefined : levels[index];
}

/** The status of the level at `index` of a course whose active level is at `active` (levelStatuses). */
export function levelStatusAt(
  levels: readonly LevelAreas[],
  index: number,
  active: number,
  doneAreaIds: ReadonlySet<number>,
): LevelStatus {
  if (passedLevel(levels[index], doneAreaIds)) return 'unlocked';
  return index === active ? 'active' : 'locked';
}

/**
 * Whether finishing `areaId` completes its level: every area of the level is done with it and
 * was not without it (the moment a level_unlocked notification is due).
 */
export function completesLevel(level: LevelAreas, doneBefore: ReadonlySet<number>, areaId: number): boolean {
  if (doneBefore.has(areaId) || !level.areaIds.includes(areaId)) return false;
  return level.areaIds.every((id) => id === areaId || doneBefore.has(id));
}

/** Levels a course lists whole (GET /api/levels): as many as season2's 14 and a few more. */
export const LEVEL_WINDOW = 16;
/** Of a longer course's window, the passed levels listed before the active one. */
export const LEVELS_BEHIND = 4;

/**
 * The levels of one course that GET /api/levels lists, with their statuses (levelStatuses): all
 * of a course of at most LEVEL_WINDOW, else LEVEL_WINDOW of them around the active one
 * (LEVELS_BEHIND passed before it, the rest after; the last ones of a course passed whole). A
 * course planned from 100,000 targets has thousands of levels in sailing order; a volunteer sails
 * them one after another and sees only these, so the list, the cruise map and their level details
 * cost the same whatever the course's size, and nothing past the window is looked at.
 */
export function levelWindow<T extends LevelAreas>(
  levels: readonly T[],
  doneAreaIds: ReadonlySet<number>,
): { levels: T[]; statuses: Map<number, LevelStatus> } {
  const active = activeLevelIndex(levels, doneAreaIds);
  let start = 0;
  let end = levels.length;
  if (levels.length > LEVEL_WINDOW) {
    const anchor = active < 0 ? levels.length : active;
    start = Math.max(0, Math.min(anchor - LEVELS_BEHIND, levels.length - LEVEL_WINDOW));
    end = start + LEVEL_WINDOW;
  }
  const statuses = new Map<number, LevelStatus>();
  for (let index = start; index < end; index++)
    statuses.set(levels[index].id, levelStatusAt(levels, index, active, doneAreaIds));
  return { levels: levels.slice(start, end), statuses };
}
