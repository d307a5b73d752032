// Quests and answers over HTTP (application-spec §4, §7; ARCHITECTURE.md, the game model),
// against PGlite and PostgreSQL, seeded from the small sky's catalogue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalogue, CatalogueLevel } from '../../shared/catalogue';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { answerRow, copyCatalogue, notificationTypes, openGame, smallSky, type GameFixture } from '../helpers/sky';

function levelsOf(catalogue: Catalogue, course: string): CatalogueLevel[] {
  return catalogue.courses.find((candidate) => candidate.id === course)!.levels;
}

describe.each(DATABASE_KINDS)('quests and answers on %s', (kind) => {
  let game: GameFixture;
  let catalogue: Catalogue;

  beforeAll(async () => {
    game = await openGame(kind);
    catalogue = game.catalogue;
  });
  afterAll(async () => {
    await game?.close();
  });

  const call = (user: TestUser | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    game.app.inject({ method, url, cookies: user?.cookies, payload });
  const currentQuest = async (user: TestUser, course: string) => {
    const response = await call(user, 'GET', `/api/courses/${course}/quests/current`);
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const answer = (user: TestUser, questId: number, body: object) =>
    call(user, 'POST', `/api/quests/${questId}/answers`, body);
  const answerRows = (userId: number) =>
    game.db.selectFrom('answers').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  describe('GET /api/courses/{course_id}/quests/current', () => {
    it('creates the quest in the first area of the first level, which starts active', async () => {
      const user = await createTestUser(game.db);
      const [firstLevel] = levelsOf(catalogue, 'season2');
      const area = firstLevel.areas[0];
      const quest = await currentQuest(user, 'season2');
      expect(quest).toMatchObject({
        course_id: 'season2',
        type: firstLevel.type,
        level_id: firstLevel.id,
        level_name_key: firstLevel.name_key,
        level_key: firstLevel.key,
        area_id: area.id,
        depth: firstLevel.depth,
        finished_at: null,
        answers: [],
        done_area_ids: [],
        no_more_available_objects: false,
      });
      expect(typeof quest.id).toBe('number');
      expect(new Date(quest.created_at).toISOString()).toBe(quest.created_at);
      expect(quest.questions).toEqual(
        area.targets.map((target) => ({ object_id: target.object_id, ra: target.ra, dec: target.dec })),
      );
    });

    it('returns the same unfinished quest on every call, and never sends the true morphology', async () => {
      const user = await createTestUser(game.db);
      const first = await currentQuest(user, 'season2');
      const second = await currentQuest(user, 'season2');
      expect(second.id).toBe(first.id);
      const quests = await game.db.selectFrom('quests').select('id').where('user_id', '=', user.id).execute();
      expect(quests).toHaveLength(1);
      for (const question of first.questions) expect(Object.keys(question).sort()).toEqual(['dec', 'object_id', 'ra']);
    });

    it('creates one quest when two requests race', async () => {
      const user = await createTestUser(game.db);
      const [a, b] = await Promise.all([currentQuest(user, 'illustris'), currentQuest(user, 'illustris')]);
      expect(a.id).toBe(b.id);
      const quests = await game.db.selectFrom('quests').select('id').where('user_id', '=', user.id).execute();
      expect(quests).toHaveLength(1);
    });

    it('gives training questions their captain notes (reference answer, comments, caption, image)', async () => {
      const user = await createTestUser(game.db);
      const quest = await currentQuest(user, 'training');
      const targets = levelsOf(catalogue, 'training')[0].areas[0].targets;
      expect(quest.questions).toEqual(
        targets.map((target) => ({
          object_id: target.object_id,
          ra: target.ra,
          dec: target.dec,
          ...(target.captain_note ? { captain_note: target.captain_note } : {}),
        })),
      );
      expect(quest.questions.some((question: { captain_note?: unknown }) => question.captain_note)).toBe(true);
      expect(quest.questions[0].captain_note).toMatchObject({ review_type: 'training' });
    });

    it('answers 404 for an unknown course and 401 for a guest', async () => {
      const user = await createTestUser(game.db);
      const unknown = await call(user, 'GET', '/api/courses/season3/quests/current');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toMatch(/Unknown course 'season3'/);
      const guest = await call(null, 'GET', '/api/courses/season2/quests/current');
      expect(guest.statusCode).toBe(401);
    });
  });

  describe('POST /api/quests/{quest_id}/answers: one answer per user and object', () => {
    it('stores the answer with the spec defaults (not_sure and false) and answers the new-record response', async () => {
      const user = await createTestUser(game.db);
      const quest = await currentQuest(user, 'season2');
      const objectId = quest.questions[0].object_id;
      const response = await answer(user, quest.id, { object_id: objectId });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ new_record: false, answers_count: 1 });
      expect(Array.isArray(body.campaigns)).toBe(true);
      const rows = await answerRows(user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        quest_id: quest.id,
        object_id: objectId,
        course_id: 'season2',
        galaxy_type: 'not_sure',
        interaction: 'not_sure',
        ring: false,
        fan: false,
        tail: false,
        distorted: false,
      });
    });

    it('replaces the answer when posted again: one row, the new values, answers_count unchanged', async () => {
      const user = await createTestUser(game.db);
      const quest = await currentQuest(user, 'season2');
      const objectId = quest.questions[0].object_id;
      const first = await answer(user, quest.id, { object_id: objectId, galaxy_type: 'spiral', interaction: 'no' });
      expect(first.json().answers_count).toBe(1);
      // The same answer re-sent after a dropped network changes nothing.
      const again = await answer(user, quest.id, { object_id: objectId, galaxy_type: 'spiral', interaction: 'no' });
      expect(again.json().answers_count).toBe(1);
      const changed = await answer(user, quest.id, {
        object_id: objectId,
        galaxy_type: 'elliptical',
        interaction: 'yes',
        ring: true,
        tail: true,
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().answers_count).toBe(1);
      const rows = await answerRows(user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        galaxy_type: 'elliptical',
        interaction: 'yes',
        ring: true,
        fan: false,
        tail: true,
      });
      expect(rows[0].updated_at.getTime()).toBeGreaterThanOrEqual(rows[0].created_at.getTime());
      const current = await currentQuest(user, 'season2');
      expect(current.answers).toEqual([
        {
          object_id: objectId,
          galaxy_type: 'elliptical',
          interaction: 'yes',
          ring: true,
          fan: false,
          tail: true,
          distorted: false,
        },
      ]);
    });

    it('rejects an object that is not a question of the quest with 422, writing nothing', async () => {
      const user = await createTestUser(game.db);
      const quest = await currentQuest(user, 'season2');
      const elsewhere = levelsOf(catalogue, 'illustris')[0].areas[0].targets[0].object_id;
      const response = await answer(user, quest.id, { object_id: elsewhere, galaxy_type: 'spiral' });
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe(`Object ${elsewhere} is not a question of quest ${quest.id}.`);
      const missing = await answer(user, quest.id, { object_id: 12345 });
      expect(missing.statusCode).toBe(422);
      expect(await answerRows(user.id)).toHaveLength(0);
    });

    it("answers 404 for another volunteer's quest or an unknown one, writing nothing", async () => {
      const owner = await createTestUser(game.db);
      const intruder = await createTestUser(game.db);
      const quest = await currentQuest(owner, 'season2');
      const objectId = quest.questions[0].object_id;
      const foreign = await answer(intruder, quest.id, { object_id: objectId });
      expect(foreign.statusCode).toBe(404);
      const unknown = await answer(intruder, 999_999_999, { object_id: objectId });
      expect(unknown.statusCode).toBe(404);
      expect(await answerRows(intruder.id)).toHaveLength(0);
      expect(await answerRows(owner.id)).toHaveLength(0);
    });

    it('answers 400 for a malformed body or id, never a 500 and never a write', async () => {
      const user = await createTestUser(game.db);
      const quest = await currentQuest(user, 'season2');
      const objectId = quest.questions[0].object_id;
      const bad = [
        {},
        { object_id: objectId, galaxy_type: 'lenticular' },
        { object_id: objectId, interaction: 'maybe' },
        { object_id: objectId, ring: 'round' },
        { object_id: -1 },
        { object_id: 1.5 },
        { object_id: 2 ** 60 },
      ];
      for (const body of bad) {
        const response = await answer(user, quest.id, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
      }
      for (const url of ['/api/quests/abc/answers', '/api/quests/0/answers', '/api/quests/1e30/answers']) {
        const response = await call(user, 'POST', url, { object_id: objectId });
        expect(response.statusCode, url).toBe(400);
      }
      const text = await game.app.inject({
        method: 'POST',
        url: `/api/quests/${quest.id}/answers`,
        cookies: user.cookies,
        headers: { 'content-type': 'application/json' },
        payload: '{"object_id": ',
      });
      expect(text.statusCode).toBe(400);
      expect(await answerRows(user.id)).toHaveLength(0);
    });

    it('answers 401 to a guest', async () => {
      const response = await call(null, 'POST', '/api/quests/1/answers', { object_id: 1 });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('a quest finishes when every question has an answer; finishing the active level unlocks the next', () => {
    it('flips the level statuses, activates the next level, notifies the user and moves the quest on', async () => {
      const user = await createTestUser(game.db);
      const [first, second] = levelsOf(catalogue, 'season2');
      const quest = await currentQuest(user, 'season2');
      const before = await call(user, 'GET', '/api/levels?course_id=season2&only_status=true');
      expect(before.json().map((level: { status: string }) => level.status)).toEqual([
        'active',
        ...Array(levelsOf(catalogue, 'season2').length - 1).fill('locked'),
      ]);

      const questions = quest.questions as { object_id: number }[];
      for (const [index, question] of questions.entries()) {
        const response = await answer(user, quest.id, { object_id: question.object_id, galaxy_type: 'spiral' });
        expect(response.statusCode).toBe(200);
        expect(response.json().answers_count).toBe(index + 1);
        const row = await game.db
          .selectFrom('quests')
          .select('finished_at')
          .where('id', '=', quest.id)
          .executeTakeFirstOrThrow();
        // Unfinished until the last question has its answer.
        expect(row.finished_at === null).toBe(index < questions.length - 1);
      }

      const after = await call(user, 'GET', '/api/levels?course_id=season2');
      const statuses = after.json().map((level: { key: string; status: string }) => [level.key, level.status]);
      expect(statuses.slice(0, 3)).toEqual([
        [first.key, 'unlocked'],
        [second.key, 'active'],
        [levelsOf(catalogue, 'season2')[2].key, 'locked'],
      ]);

      const notifications = await game.db
        .selectFrom('notifications')
        .select(['type', 'title'])
        .where('user_id', '=', user.id)
        .execute();
      expect(notifications).toHaveLength(1);
      expect(notifications[0].type).toBe('level_unlocked');
      expect(notifications[0].title.en).toContain(second.name.en);

      // The finishing answer already created the next quest (before any GET), in the newly
      // active level; GET …/quests/current returns that very quest: here a tunnel-effect deep field.
      const created = await game.db
        .selectFrom('quests')
        .select(['id', 'level_id', 'area_id', 'type'])
        .where('user_id', '=', user.id)
        .where('finished_at', 'is', null)
        .execute();
      expect(created).toEqual([
        { id: expect.any(Number), level_id: second.id, area_id: second.areas[0].id, type: second.type },
      ]);
      const next = await currentQuest(user, 'season2');
      expect(next.id).toBe(created[0].id);
      expect(next.id).not.toBe(quest.id);
      expect(next).toMatchObject({
        level_id: second.id,
        level_key: second.key,
        type: second.type,
        depth: second.depth,
        area_id: second.areas[0].id,
        done_area_ids: [first.areas[0].id],
      });
      expect(second.type).toBe('tunnel_effect');
      expect(next.depth).toBe('dud');

      // Changing an answer of the finished quest is allowed and notifies nobody again.
      const change = await answer(user, quest.id, { object_id: questions[0].object_id, galaxy_type: 'elliptical' });
      expect(change.statusCode).toBe(200);
      const again = await game.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).execute();
      expect(again).toHaveLength(1);
    });

    it('finishes the quest exactly once when all its answers are posted at the same time', async () => {
      const user = await createTestUser(game.db);
      const quest = await currentQuest(user, 'season2');
      const questions = quest.questions as { object_id: number }[];
      expect(questions.length).toBeGreaterThan(1);
      // Each answer's statement may not see the others: the locked completion check must still
      // finish the quest, once, with one level_unlocked notification.
      const responses = await Promise.all(
        questions.map((question) => answer(user, quest.id, { object_id: question.object_id })),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(questions.map(() => 200));
      const row = await game.db
        .selectFrom('quests')
        .select(['finished_at', 'answer_posts'])
        .where('id', '=', quest.id)
        .executeTakeFirstOrThrow();
      expect(row.finished_at).not.toBeNull();
      expect(row.answer_posts).toBe(questions.length);
      expect(await notificationTypes(game.db, user.id)).toEqual(['level_unlocked']);
      expect((await answerRows(user.id)).length).toBe(questions.length);
      // And one next quest, created by the answer that finished it.
      const unfinished = await game.db
        .selectFrom('quests')
        .select('id')
        .where('user_id', '=', user.id)
        .where('finished_at', 'is', null)
        .execute();
      expect(unfinished).toHaveLength(1);
      expect((await currentQuest(user, 'season2')).id).toBe(unfinished[0].id);
    });

    it('finishes, on the next GET, a quest whose answers committed without its finish, with the notification', async () => {
      // The answers commit before their quest's finish (server/game/answer-batches.ts); a server
      // killed in between, or a finish that failed, leaves every question answered and the quest
      // open. Here the answers are written as such a batch leaves them.
      const user = await createTestUser(game.db);
      const [first, second] = levelsOf(catalogue, 'season2');
      const quest = await currentQuest(user, 'season2');
      await game.db
        .insertInto('answers')
        .values(
          (quest.questions as { object_id: number }[]).map((question) =>
            answerRow({ user_id: user.id, quest_id: quest.id, object_id: question.object_id, course_id: 'season2' }),
          ),
        )
        .execute();

      const next = await currentQuest(user, 'season2');
      expect(next).toMatchObject({
        level_id: second.id,
        area_id: second.areas[0].id,
        done_area_ids: [first.areas[0].id],
      });
      const row = await game.db
        .selectFrom('quests')
        .select('finished_at')
        .where('id', '=', quest.id)
        .executeTakeFirstOrThrow();
      expect(row.finished_at).not.toBeNull();
      // As the answer's own finish would have: the level it unlocked is announced, once.
      expect(await notificationTypes(game.db, user.id)).toEqual(['level_unlocked']);
      expect((await currentQuest(user, 'season2')).id).toBe(next.id);
      expect(await notificationTypes(game.db, user.id)).toEqual(['level_unlocked']);
    });

    it('says no_more_available_objects when the course is exhausted', async () => {
      const user = await createTestUser(game.db);
      const levels = levelsOf(catalogue, 'training');
      for (let round = 0; round < levels.length; round++) {
        const quest = await currentQuest(user, 'training');
        expect(quest.no_more_available_objects).toBe(false);
        for (const question of quest.questions) await answer(user, quest.id, { object_id: question.object_id });
      }
      const done = await currentQuest(user, 'training');
      expect(done).toMatchObject({
        id: null,
        course_id: 'training',
        level_id: null,
        area_id: null,
        questions: [],
        answers: [],
        no_more_available_objects: true,
      });
      expect(done.done_area_ids).toEqual(levels.flatMap((level) => level.areas.map((area) => area.id)).sort());
      const statuses = await call(user, 'GET', '/api/levels?course_id=training&only_status=true');
      expect(statuses.json().every((level: { status: string }) => level.status === 'unlocked')).toBe(true);
    });
  });

  describe('DELETE /api/courses/{course_id}/quests: a new game', () => {
    it('deletes the quests of training, keeps the answers, and replaying replaces them', async () => {
      const user = await createTestUser(game.db);
      const quest = await currentQuest(user, 'training');
      const objectId = quest.questions[0].object_id;
      await answer(user, quest.id, { object_id: objectId, galaxy_type: 'spiral' });
      await currentQuest(user, 'season2');

      const response = await call(user, 'DELETE', '/api/courses/training/quests');
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const quests = await game.db.selectFrom('quests').select('course_id').where('user_id', '=', user.id).execute();
      expect(quests.map((row) => row.course_id)).toEqual(['season2']);
      const kept = await answerRows(user.id);
      expect(kept).toHaveLength(1);
      expect(kept[0].quest_id).toBeNull();

      const fresh = await currentQuest(user, 'training');
      expect(fresh.id).not.toBe(quest.id);
      expect(fresh.answers).toEqual([]);
      const replay = await answer(user, fresh.id, { object_id: objectId, galaxy_type: 'elliptical' });
      expect(replay.statusCode).toBe(200);
      const rows = await answerRows(user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ quest_id: fresh.id, galaxy_type: 'elliptical' });
    });

    it('is allowed for illustris_review too', async () => {
      const user = await createTestUser(game.db);
      await currentQuest(user, 'illustris_review');
      const response = await call(user, 'DELETE', '/api/courses/illustris_review/quests');
      expect(response.statusCode).toBe(204);
    });

    it('answers 422 for the other courses and deletes nothing', async () => {
      const user = await createTestUser(game.db);
      const quest = await currentQuest(user, 'season2');
      for (const course of ['season2', 'illustris', 'final_campaign']) {
        const response = await call(user, 'DELETE', `/api/courses/${course}/quests`);
        expect(response.statusCode).toBe(422);
        expect(response.json().message).toBe(
          `A new game can only be started in the training and illustris_review courses, not in ${course}.`,
        );
      }
      expect((await currentQuest(user, 'season2')).id).toBe(quest.id);
      expect((await call(user, 'DELETE', '/api/courses/nowhere/quests')).statusCode).toBe(404);
      expect((await call(null, 'DELETE', '/api/courses/training/quests')).statusCode).toBe(401);
    });
  });

  describe('GET /api/my_record/{course_id} and GET /api/my_records', () => {
    it("lists the user's quests per course with area_id, course_id, level_key, created_at, finished_at", async () => {
      const user = await createTestUser(game.db);
      const other = await createTestUser(game.db);
      const quest = await currentQuest(user, 'season2');
      for (const question of quest.questions) await answer(user, quest.id, { object_id: question.object_id });
      const next = await currentQuest(user, 'season2');
      await currentQuest(user, 'illustris');
      await currentQuest(other, 'season2');

      const record = await call(user, 'GET', '/api/my_record/season2');
      expect(record.statusCode).toBe(200);
      const body = record.json();
      expect(body.course_id).toBe('season2');
      expect(body.answers_count).toBe(quest.questions.length);
      expect(body.quests).toHaveLength(2);
      expect(body.quests[0]).toMatchObject({
        id: quest.id,
        area_id: quest.area_id,
        course_id: 'season2',
        level_key: quest.level_key,
        created_at: quest.created_at,
      });
      expect(typeof body.quests[0].finished_at).toBe('string');
      expect(body.quests[1]).toMatchObject({ id: next.id, finished_at: null });

      // The course defaults to season2.
      expect((await call(user, 'GET', '/api/my_record')).json()).toEqual(body);

      const records = (await call(user, 'GET', '/api/my_records')).json();
      expect(Object.keys(records).sort()).toEqual(
        ['final_campaign', 'illustris', 'illustris_review', 'season2', 'training'].sort(),
      );
      expect(records.season2).toEqual(body);
      expect(records.illustris.quests).toHaveLength(1);
      expect(records.training.quests).toEqual([]);
      expect(records.training.answers_count).toBe(0);

      expect((await call(user, 'GET', '/api/my_record/season9')).statusCode).toBe(404);
      expect((await call(null, 'GET', '/api/my_records')).statusCode).toBe(401);
    });
  });

  describe('recommended_course in GET /api/session', () => {
    it('is training until the user has answered, then the course of the latest unfinished quest', async () => {
      const user = await createTestUser(game.db);
      const session = async () => (await call(user, 'GET', '/api/session')).json().recommended_course;
      expect(await session()).toBe('training');
      const quest = await currentQuest(user, 'illustris');
      expect(await session()).toBe('training');
      await answer(user, quest.id, { object_id: quest.questions[0].object_id });
      expect(await session()).toBe('illustris');
      expect((await call(null, 'GET', '/api/session')).json().recommended_course).toBeNull();
    });
  });
});

describe.each(DATABASE_KINDS)('a new quest goes to the nearest not-done area of the active level, on %s', (kind) => {
  let game: GameFixture;
  // A season2 of two levels: the first holds three areas of the small sky — AEGIS (RA 215°,
  // Dec +53°), COSMOS (RA 150°, Dec +2°) and GAMA15h (RA 217°, Dec 0°) in that order — so that
  // the area nearest to AEGIS is the last one listed, not the next one.
  let aegis: number;
  let cosmos: number;
  let gama: number;

  beforeAll(async () => {
    const { catalogue } = await smallSky();
    const variant = copyCatalogue(catalogue);
    const season2 = variant.courses.find((course) => course.id === 'season2')!;
    const byKey = (key: string) => season2.levels.find((level) => level.key === key)!;
    const first = byKey('season2-aegis');
    aegis = first.areas[0].id;
    cosmos = byKey('season2-cosmos').areas[0].id;
    gama = byKey('season2-gama15h-cluster').areas[0].id;
    first.areas = [...first.areas, ...byKey('season2-cosmos').areas, ...byKey('season2-gama15h-cluster').areas];
    season2.levels = [first, byKey('season2-sxds-ud')];
    game = await openGame(kind, variant);
  });
  afterAll(async () => {
    await game?.close();
  });

  it('starts at the first area, then sails to the nearest open one, then the remaining one', async () => {
    const user = await createTestUser(game.db);
    const visited: number[] = [];
    for (let round = 0; round < 3; round++) {
      const response = await game.app.inject({
        method: 'GET',
        url: '/api/courses/season2/quests/current',
        cookies: user.cookies,
      });
      const quest = response.json();
      expect(quest.level_key).toBe('season2-aegis');
      visited.push(quest.area_id);
      for (const question of quest.questions)
        await game.app.inject({
          method: 'POST',
          url: `/api/quests/${quest.id}/answers`,
          cookies: user.cookies,
          payload: { object_id: question.object_id },
        });
    }
    expect(visited).toEqual([aegis, gama, cosmos]);
    const next = await game.app.inject({
      method: 'GET',
      url: '/api/courses/season2/quests/current',
      cookies: user.cookies,
    });
    expect(next.json()).toMatchObject({ level_key: 'season2-sxds-ud', done_area_ids: [aegis, cosmos, gama].sort() });
  });
});
