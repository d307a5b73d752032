// The passport's pages (application-spec §2): one stamp per completed level (status unlocked),
// dated by the finish of the level's last quest, its image one of the three stamps of the sky
// data (skydata/passport.ts) by the level's place in its course. The stage the volunteer is
// cruising (status active) reads as the current one, not as a stage still to visit.
import type { LevelSummary, QuestRecord } from '../../../../shared/api';
import { STAMP_IMAGES } from '../../../../shared/rewards';

/** Where the volunteer stands with a stage: completed, cruising it now, or not yet there. */
export type StageState = 'stamped' | 'current' | 'ahead';

export interface StampSlot {
  level: Pick<LevelSummary, 'id' | 'key' | 'name' | 'status'>;
  /** The stamp's image in the sky data; null while the level is not completed. */
  image: string | null;
  /** ISO time the level was completed (its last finished quest), when known. */
  date: string | null;
  state: StageState;
}

export function stampSlots(
  levels: readonly Pick<LevelSummary, 'id' | 'key' | 'name' | 'status'>[],
  quests: readonly Pick<QuestRecord, 'level_key' | 'finished_at'>[],
): StampSlot[] {
  return levels.map((level, index) => {
    if (level.status !== 'unlocked')
      return { level, image: null, date: null, state: level.status === 'active' ? 'current' : 'ahead' };
    let date: string | null = null;
    for (const quest of quests)
      if (quest.level_key === level.key && quest.finished_at && (!date || quest.finished_at > date))
        date = quest.finished_at;
    return { level, image: STAMP_IMAGES[index % STAMP_IMAGES.length], date, state: 'stamped' };
  });
}
