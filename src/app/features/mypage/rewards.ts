// The mypage's reward rules (application-spec §4, §9), as pure functions: the cabin rank by the
// share of season2 areas finished (cruise/levelMessages.ts holds the thresholds) shown as
// 4 − rank stars, and the certificates. The regular-course certificate is earned when the distinct
// finished areas number the course's total; the second when every level of the course is
// unlocked. Either's completion date is the finish time of the quest that completed the last
// distinct area.
import type { LevelStatus } from '../../../../shared/enums';
import type { QuestRecord } from '../../../../shared/api';
import { cabinRank } from '../cruise/levelMessages';

export const MAX_STARS = 4;

/** Distinct areas with a finished quest. */
export function finishedAreaCount(quests: readonly QuestRecord[]): number {
  return new Set(quests.filter((quest) => quest.finished_at !== null).map((quest) => quest.area_id)).size;
}

/** §9: rank 4 (under 5 % of season2's areas finished) to 0 'Delux' (half or more); stars 4 − rank. */
export function cabin(quests: readonly QuestRecord[], totalAreas: number): { rank: number; stars: number } {
  const rank = cabinRank(finishedAreaCount(quests), totalAreas);
  return { rank, stars: MAX_STARS - rank };
}

/** The finish time of the quest that completed the last distinct area, or null when none did. */
export function completionDate(quests: readonly QuestRecord[]): string | null {
  const finished = quests
    .filter((quest): quest is QuestRecord & { finished_at: string } => quest.finished_at !== null)
    .sort((a, b) => Date.parse(a.finished_at) - Date.parse(b.finished_at) || a.id - b.id);
  const areas = new Set<number>();
  let last: string | null = null;
  for (const quest of finished) {
    if (areas.has(quest.area_id)) continue;
    areas.add(quest.area_id);
    last = quest.finished_at;
  }
  return last;
}

export type CertificateKind = 'course' | 'levels';

export interface Certificate {
  kind: CertificateKind;
  /** ISO 8601: the completion date of §4. */
  completedAt: string;
}

/** The certificates earned in one course; empty when none is (the mypage then hides the block). */
export function certificates({
  quests,
  totalAreas,
  levelStatuses,
}: {
  quests: readonly QuestRecord[];
  totalAreas: number;
  levelStatuses: readonly LevelStatus[];
}): Certificate[] {
  const completedAt = completionDate(quests);
  if (completedAt === null) return [];
  const earned: Certificate[] = [];
  if (totalAreas > 0 && finishedAreaCount(quests) === totalAreas) earned.push({ kind: 'course', completedAt });
  if (levelStatuses.length > 0 && levelStatuses.every((status) => status === 'unlocked'))
    earned.push({ kind: 'levels', completedAt });
  return earned;
}
