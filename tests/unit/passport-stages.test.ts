// The passport's stages (src/app/features/passport/stamps.ts): a completed stage is stamped, the
// stage the volunteer is cruising (status active) is the current one, and the rest lie ahead.
import { describe, expect, it } from 'vitest';
import type { LevelStatus } from '../../shared/enums';
import { stampSlots } from '../../src/app/features/passport/stamps';

const level = (id: number, status: LevelStatus) => ({
  id,
  key: `level-${id}`,
  name: { en: `Stage ${id}`, ja: `ステージ${id}` },
  status,
});

describe('passport stages', () => {
  it('reads the active stage as current, not as one still to visit', () => {
    const slots = stampSlots([level(1, 'unlocked'), level(2, 'active'), level(3, 'locked')], []);
    expect(slots.map((slot) => slot.state)).toEqual(['stamped', 'current', 'ahead']);
    expect(slots[1].image).toBeNull();
  });
});
