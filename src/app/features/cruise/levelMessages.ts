// The messages after a completed area, in the order of application-spec §4: passport stamp
// added (the passport's courses), cabin rank upgrade (season2), entering greed, leaving greed back to regular, regular
// level change, entering tunnel effect, the final dialog when every season2 area rank is reached
// (the top cabin, rank 0), and the course's completion dialog when no galaxy is left in it.
// Cabin ranks by the share of season2 areas finished (§9).
import type { LevelType } from '../../../../shared/enums';
import { PASSPORT_COURSES } from '../../../../shared/rewards';

export type LevelMessage =
  'stamp' | 'cabin' | 'enterGreed' | 'leaveGreed' | 'levelChange' | 'enterTunnel' | 'finalRank' | 'courseCompleted';

/** §9: under 5 % is 4, under 10 % 3, under 20 % 2, under 50 % 1, otherwise 0 (Delux). */
export function cabinRank(finishedAreas: number, totalAreas: number): number {
  const share = totalAreas > 0 ? finishedAreas / totalAreas : 0;
  if (share < 0.05) return 4;
  if (share < 0.1) return 3;
  if (share < 0.2) return 2;
  if (share < 0.5) return 1;
  return 0;
}

export interface QuestPlace {
  level_id: number;
  type: LevelType;
  done_area_ids: readonly number[];
}

export interface AreaCompletion {
  course: string;
  before: QuestPlace;
  /** The quest after the refresh; null when the course has no galaxy left. */
  after: QuestPlace | null;
  /** The done areas after the refresh (the course's, also when no galaxy is left); after's by default. */
  doneAfter?: readonly number[];
  /** The area ids of the finished quest's level. */
  levelAreaIds: readonly number[];
  /** Every area of the course (season2's cabin rank). */
  totalAreas: number;
}

export function levelMessages({
  course,
  before,
  after,
  doneAfter: doneAfterList,
  levelAreaIds,
  totalAreas,
}: AreaCompletion): LevelMessage[] {
  const messages: LevelMessage[] = [];
  const doneAfter = new Set(doneAfterList ?? after?.done_area_ids ?? []);
  const levelWasDone = levelAreaIds.length > 0 && levelAreaIds.every((id) => before.done_area_ids.includes(id));
  const stamped = (PASSPORT_COURSES as readonly string[]).includes(course);
  if (stamped && !levelWasDone && levelAreaIds.length > 0 && levelAreaIds.every((id) => doneAfter.has(id)))
    messages.push('stamp');
  const rankBefore = cabinRank(before.done_area_ids.length, totalAreas);
  const rankAfter = cabinRank(doneAfter.size, totalAreas);
  const season2 = course === 'season2' && doneAfter.size > 0;
  if (season2 && rankAfter < rankBefore) messages.push('cabin');
  if (after) {
    if (after.type === 'greed' && before.type !== 'greed') messages.push('enterGreed');
    else if (before.type === 'greed' && after.type === 'regular') messages.push('leaveGreed');
    else if (after.level_id !== before.level_id && before.type === 'regular' && after.type === 'regular')
      messages.push('levelChange');
    if (after.type === 'tunnel_effect' && before.type !== 'tunnel_effect') messages.push('enterTunnel');
  }
  if (season2 && rankAfter === 0 && rankBefore > 0) messages.push('finalRank');
  if (!after) messages.push('courseCompleted');
  return messages;
}
