// GET /api/user_stats (application-spec §3 User stats: answers_count_per_course), the mypage's
// classified counts per course, against PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURSE_IDS } from '../../src/shared/enums';
import { createTestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { openGame, type GameFixture } from '../helpers/sky';

describe.each(DATABASE_KINDS)('user stats on %s', (kind) => {
  let game: GameFixture;

  beforeAll(async () => {
    game = await openGame(kind);
  });
  afterAll(async () => {
    await game?.close();
  });

  it("counts the user's own answers per course, every course present, a changed answer once", async () => {
    const [volunteer, other] = [await createTestUser(game.db), await createTestUser(game.db)];
    const stats = async () => {
      const response = await game.app.inject({ method: 'GET', url: '/api/user_stats', cookies: volunteer.cookies });
      expect(response.statusCode).toBe(200);
      return response.json().answers_count_per_course;
    };
    expect(await stats()).toEqual(Object.fromEntries(COURSE_IDS.map((id) => [id, 0])));

    for (const [who, count] of [
      [volunteer, 2],
      [other, 3],
    ] as const) {
      const quest = (
        await game.app.inject({ method: 'GET', url: '/api/courses/season2/quests/current', cookies: who.cookies })
      ).json();
      for (let i = 0; i < count; i++) {
        const answer = await game.app.inject({
          method: 'POST',
          url: `/api/quests/${quest.id}/answers`,
          cookies: who.cookies,
          payload: { object_id: quest.questions[i].object_id, galaxy_type: 'spiral' },
        });
        expect(answer.statusCode).toBe(200);
      }
      if (who === volunteer) {
        // Answering the same galaxy again replaces the answer: still two.
        await game.app.inject({
          method: 'POST',
          url: `/api/quests/${quest.id}/answers`,
          cookies: who.cookies,
          payload: { object_id: quest.questions[0].object_id, galaxy_type: 'elliptical' },
        });
      }
    }
    expect(await stats()).toMatchObject({ season2: 2, illustris: 0, final_campaign: 0 });
  });

  it('answers 401 without a session', async () => {
    const response = await game.app.inject({ method: 'GET', url: '/api/user_stats' });
    expect(response.statusCode).toBe(401);
  });
});
