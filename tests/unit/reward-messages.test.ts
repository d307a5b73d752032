// What an answer earns (application-spec §4, §9): the medal message after a new record, the
// souvenir puzzle-piece message when the course total is a multiple of the objects-per-piece
// constant, the jigsaw's 7 × 8 pieces, the passport's stamps, and what an exhausted course says.
import { describe, expect, it } from 'vitest';
import type { CampaignEntry, NewRecordResponse } from '../../shared/api';
import { answerRewards, exhaustedMessage, reachedMedal } from '../../src/app/features/cruise/rewardMessages';
import { stampSlots } from '../../src/app/features/passport/stamps';
import { STAMP_IMAGES } from '../../shared/rewards';
import {
  completesJigsaw,
  PIECES_PER_JIGSAW,
  piecesEarned,
  piecesPerSouvenir,
  revealedCells,
} from '../../src/app/features/souvenirs/jigsaw';

const medal = (count: number) => ({
  count,
  image: `m${count}.png`,
  notch: 1,
  messages: { en: `${count}!`, ja: `${count}！` },
});
const campaign = (count: number, begin = '2026-01-01T00:00:00Z', end = '2026-12-31T23:59:59Z'): CampaignEntry => ({
  meta: { id: 1, name: { en: 'C', ja: 'C' }, period_begin: begin, period_end: end, medals: [medal(10), medal(20)] },
  count,
});
const NOW = new Date('2026-06-01T00:00:00Z');
const response = (answers_count: number, new_record = false, campaigns: CampaignEntry[] = []): NewRecordResponse => ({
  campaigns,
  new_record,
  answers_count,
});

describe('the medal message after a new record', () => {
  it('names the medal whose count the campaign reached', () => {
    expect(reachedMedal([campaign(20)], NOW)?.medal.count).toBe(20);
    expect(
      answerRewards({
        response: response(7, true, [campaign(10)]),
        previousCount: null,
        objectsPerPiece: 30,
        now: NOW,
      }),
    ).toEqual([{ kind: 'medal', campaign: campaign(10).meta, medal: medal(10) }]);
  });

  it('takes the highest medal reached when the count went past it, and only in an open campaign', () => {
    expect(reachedMedal([campaign(23)], NOW)?.medal.count).toBe(20);
    expect(reachedMedal([campaign(20, '2027-01-01T00:00:00Z', '2027-02-01T00:00:00Z')], NOW)).toBeNull();
  });

  it('shows no medal without a new record', () => {
    expect(
      answerRewards({
        response: response(7, false, [campaign(10)]),
        previousCount: null,
        objectsPerPiece: 30,
        now: NOW,
      }),
    ).toEqual([]);
  });
});

describe('the souvenir puzzle-piece message', () => {
  const piece = (count: number, previousCount: number | null = null, objectsPerPiece = 30) =>
    answerRewards({ response: response(count), previousCount, objectsPerPiece, now: NOW });

  it('appears when the course total after this answer is a multiple of the objects-per-piece constant', () => {
    expect(piece(30)).toEqual([{ kind: 'piece' }]);
    expect(piece(60)).toEqual([{ kind: 'piece' }]);
    expect(piece(29)).toEqual([]);
    expect(piece(31)).toEqual([]);
    // Developer mode: 3 objects per piece.
    expect(piece(3, null, 3)).toEqual([{ kind: 'piece' }]);
    expect(piece(4, null, 3)).toEqual([]);
  });

  it('does not come again for a re-posted answer, which leaves the total as it was', () => {
    expect(piece(30, 30)).toEqual([]);
  });

  it('follows the medal message', () => {
    expect(
      answerRewards({
        response: response(30, true, [campaign(10)]),
        previousCount: 29,
        objectsPerPiece: 30,
        now: NOW,
      }).map((message) => message.kind),
    ).toEqual(['medal', 'piece']);
  });
});

describe('the souvenir jigsaw: 7 columns by 8 rows, 30 objects per piece, 1680 objects per jigsaw', () => {
  it('earns a piece per 30 answers of a course, 56 pieces a jigsaw', () => {
    expect(PIECES_PER_JIGSAW).toBe(56);
    expect(piecesEarned([1680], 30)).toBe(56);
    expect(piecesEarned([29, 59, 30], 30)).toBe(2);
    expect(piecesEarned([9], 3)).toBe(3);
  });

  it('fills the souvenirs in their order', () => {
    expect(piecesPerSouvenir(60, 3)).toEqual([56, 4, 0]);
    expect(piecesPerSouvenir(0, 2)).toEqual([0, 0]);
    expect(piecesPerSouvenir(500, 2)).toEqual([56, 56]);
  });

  it('reveals every cell exactly once, scattered over the jigsaw', () => {
    expect(revealedCells(56).size).toBe(56);
    expect([...revealedCells(3)]).toEqual([0, 23, 46]);
    expect(revealedCells(100).size).toBe(56);
  });

  it('tells the piece that completes a jigsaw', () => {
    expect([0, 55, 56, 57, 112].map(completesJigsaw)).toEqual([false, false, true, false, true]);
  });
});

describe('a course without a galaxy left', () => {
  it("says 'no available galaxy' when nothing was done in it", () => {
    expect(exhaustedMessage('season2', 0)).toBe('noAvailable');
  });

  it('shows the TNG completion, the final-campaign completion, or the course completion dialog', () => {
    expect(exhaustedMessage('illustris', 3)).toBe('tngCompleted');
    expect(exhaustedMessage('illustris_review', 1)).toBe('tngCompleted');
    expect(exhaustedMessage('final_campaign', 2)).toBe('finalCompleted');
    expect(exhaustedMessage('training', 1)).toBe('complete.training');
    expect(exhaustedMessage('season2', 5)).toBe('complete.season2');
    expect(exhaustedMessage('lsb-dwarfs', 6, 6)).toBe('complete.imported');
  });

  it("says 'no available galaxy' while areas the volunteer has not done were retired by the course's rule", () => {
    expect(exhaustedMessage('lsb-dwarfs', 0, 12)).toBe('noAvailable');
    expect(exhaustedMessage('lsb-dwarfs', 4, 12)).toBe('noAvailable');
  });
});

describe('the passport: a stamp per completed level, from three stamp images', () => {
  const level = (id: number, status: 'locked' | 'active' | 'unlocked') => ({
    id,
    key: `level-${id}`,
    name: { en: `Stage ${id}`, ja: `ステージ${id}` },
    status,
  });
  it('stamps the unlocked levels, dated by their last finished quest, the images in turn by place', () => {
    const slots = stampSlots(
      [level(1, 'unlocked'), level(2, 'unlocked'), level(3, 'unlocked'), level(4, 'unlocked'), level(5, 'active')],
      [
        { level_key: 'level-1', finished_at: '2026-01-02T00:00:00.000Z' },
        { level_key: 'level-1', finished_at: '2026-01-05T00:00:00.000Z' },
        { level_key: 'level-1', finished_at: null },
        { level_key: 'level-2', finished_at: '2026-01-03T00:00:00.000Z' },
      ],
    );
    expect(slots.map((slot) => slot.image)).toEqual([...STAMP_IMAGES, STAMP_IMAGES[0], null]);
    expect(slots.map((slot) => slot.date)).toEqual([
      '2026-01-05T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
      null,
      null,
      null,
    ]);
  });
});
