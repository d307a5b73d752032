// Seeding from the sky catalogue (ARCHITECTURE.md; issue 5: on first start and whenever the
// catalogue changes, idempotently) against PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed';
import { campaignBoard } from '../../server/game/model-reads';
import { createTestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { copyCatalogue, notificationTypes, openGame, type GameFixture } from '../helpers/sky';

describe.each(DATABASE_KINDS)('seeding from catalogue.json on %s', (kind) => {
  let game: GameFixture;

  beforeAll(async () => {
    game = await openGame(kind);
  });
  afterAll(async () => {
    await game?.close();
  });

  const count = async (table: 'levels' | 'areas' | 'targets' | 'campaigns' | 'answers' | 'quests') =>
    Number(
      (
        await game.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('writes every course, level, area, target (with its true morphology and captain note) and campaign', async () => {
    const { catalogue } = game;
    const levels = catalogue.courses.flatMap((course) => course.levels);
    const areas = levels.flatMap((level) => level.areas);
    const targets = areas.flatMap((area) => area.targets);
    expect(await count('levels')).toBe(levels.length);
    expect(await count('areas')).toBe(areas.length);
    expect(await count('targets')).toBe(targets.length);
    expect(await count('campaigns')).toBe(catalogue.campaigns.length);
    const noted = targets.find((target) => target.captain_note)!;
    const row = await game.db
      .selectFrom('targets')
      .selectAll()
      .where('object_id', '=', noted.object_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      ra: noted.ra,
      dec: noted.dec,
      galaxy_type: noted.galaxy_type,
      interaction: noted.interaction,
      ring: noted.ring,
      fan: noted.fan,
      tail: noted.tail,
      distorted: noted.distorted,
      captain_note: noted.captain_note,
      retired: false,
    });
    const state = await game.db.selectFrom('catalogue_state').select('digest').executeTakeFirstOrThrow();
    expect(state.digest).toBe(catalogue.digest);
  });

  it('skips a catalogue whose digest is already seeded', async () => {
    const result = await seedCatalogue(game.db, game.catalogue);
    expect(result.seeded).toBe(false);
  });

  it('re-seeds a changed catalogue idempotently: updates in place, retires what left, keeps every answer', async () => {
    const user = await createTestUser(game.db);
    const quest = (
      await game.app.inject({ method: 'GET', url: '/api/courses/season2/quests/current', cookies: user.cookies })
    ).json();
    for (const question of quest.questions)
      await game.app.inject({
        method: 'POST',
        url: `/api/quests/${quest.id}/answers`,
        cookies: user.cookies,
        payload: { object_id: question.object_id, galaxy_type: 'spiral' },
      });
    const answersBefore = await game.db.selectFrom('answers').selectAll().orderBy('id').execute();
    expect(answersBefore).toHaveLength(quest.questions.length);
    // The live community counts (the campaign sequences), which the re-seed recounts.
    const campaignCount = (await campaignBoard(game.db)).map((entry) => [entry.meta.id, entry.count]);

    // The next build renames a level, drops illustris_review's level, and drops the answered
    // area's last target.
    const variant = copyCatalogue(game.catalogue);
    const season2 = variant.courses.find((course) => course.id === 'season2')!;
    season2.levels[1].name = { en: 'Renamed', ja: '改名' };
    const review = variant.courses.find((course) => course.id === 'illustris_review')!;
    const droppedLevel = review.levels[0];
    review.levels = [];
    const answeredArea = season2.levels[0].areas[0];
    const droppedTarget = answeredArea.targets.pop()!;

    for (let run = 0; run < 2; run++) {
      const result = await seedCatalogue(game.db, variant);
      expect(result.seeded).toBe(run === 0);
    }
    const rowCounts = [await count('levels'), await count('areas'), await count('targets')];
    // Twice more with the digest forgotten: still the same rows (upserts by the catalogue's ids).
    for (let run = 0; run < 2; run++) {
      await game.db.deleteFrom('catalogue_state').execute();
      expect((await seedCatalogue(game.db, variant)).seeded).toBe(true);
    }
    expect([await count('levels'), await count('areas'), await count('targets')]).toEqual(rowCounts);

    const renamed = await game.db
      .selectFrom('levels')
      .select('name')
      .where('id', '=', season2.levels[1].id)
      .executeTakeFirstOrThrow();
    expect(renamed.name).toEqual({ en: 'Renamed', ja: '改名' });
    const retiredLevel = await game.db
      .selectFrom('levels')
      .select('retired')
      .where('id', '=', droppedLevel.id)
      .executeTakeFirstOrThrow();
    expect(retiredLevel.retired).toBe(true);
    const retiredTarget = await game.db
      .selectFrom('targets')
      .select('retired')
      .where('object_id', '=', droppedTarget.object_id)
      .executeTakeFirstOrThrow();
    expect(retiredTarget.retired).toBe(true);

    // Every answer is still there, unchanged, including the one to the retired target.
    expect(await game.db.selectFrom('answers').selectAll().orderBy('id').execute()).toEqual(answersBefore);
    expect((await campaignBoard(game.db)).map((entry) => [entry.meta.id, entry.count])).toEqual(campaignCount);

    // The API follows the new catalogue: the retired level is gone from the list.
    const levels = (await game.app.inject({ method: 'GET', url: '/api/levels', cookies: user.cookies })).json();
    expect(levels.map((level: { id: number }) => level.id)).not.toContain(droppedLevel.id);
    const info = (await game.app.inject({ method: 'GET', url: '/api/server_info', cookies: user.cookies })).json();
    expect(info.number_of_areas.illustris_review ?? {}).toEqual({});

    // Seeding the original again brings the rows back into service.
    expect((await seedCatalogue(game.db, game.catalogue)).seeded).toBe(true);
    const back = await game.db
      .selectFrom('levels')
      .select('retired')
      .where('id', '=', droppedLevel.id)
      .executeTakeFirstOrThrow();
    expect(back.retired).toBe(false);
    expect(await count('answers')).toBe(answersBefore.length);
  });

  it('finishes a quest whose only open question left the catalogue, and moves the volunteer on', async () => {
    const user = await createTestUser(game.db);
    const get = async () =>
      (
        await game.app.inject({ method: 'GET', url: '/api/courses/illustris/quests/current', cookies: user.cookies })
      ).json();
    const quest = await get();
    const questions = quest.questions as { object_id: number }[];
    for (const question of questions.slice(0, -1))
      await game.app.inject({
        method: 'POST',
        url: `/api/quests/${quest.id}/answers`,
        cookies: user.cookies,
        payload: { object_id: question.object_id },
      });
    const variant = copyCatalogue(game.catalogue, `${game.catalogue.digest}-without-last`);
    const area = variant.courses.find((course) => course.id === 'illustris')!.levels[0].areas[0];
    area.targets = area.targets.filter((target) => target.object_id !== questions.at(-1)!.object_id);
    try {
      await seedCatalogue(game.db, variant);
      const after = await get();
      expect(after.id).not.toBe(quest.id);
      expect(after.done_area_ids).toEqual([quest.area_id]);
      const finished = await game.db
        .selectFrom('quests')
        .select('finished_at')
        .where('id', '=', quest.id)
        .executeTakeFirstOrThrow();
      expect(finished.finished_at).not.toBeNull();
    } finally {
      await seedCatalogue(game.db, game.catalogue);
    }
  });

  it('finishes a quest (and unlocks the level) with the catalogue seeded again since the quest began', async () => {
    const user = await createTestUser(game.db);
    const quest = (
      await game.app.inject({ method: 'GET', url: '/api/courses/season2/quests/current', cookies: user.cookies })
    ).json();
    const post = (objectId: number) =>
      game.app.inject({
        method: 'POST',
        url: `/api/quests/${quest.id}/answers`,
        cookies: user.cookies,
        payload: { object_id: objectId },
      });
    const questions = quest.questions as { object_id: number }[];
    for (const question of questions.slice(0, -1)) expect((await post(question.object_id)).statusCode).toBe(200);
    // A new catalogue version: the last answer reads the levels afresh inside its transaction.
    await seedCatalogue(game.db, copyCatalogue(game.catalogue, `${game.catalogue.digest}-again`));
    try {
      expect((await post(questions.at(-1)!.object_id)).statusCode).toBe(200);
      const finished = await game.db
        .selectFrom('quests')
        .select('finished_at')
        .where('id', '=', quest.id)
        .executeTakeFirstOrThrow();
      expect(finished.finished_at).not.toBeNull();
      expect(await notificationTypes(game.db, user.id)).toEqual(['level_unlocked']);
    } finally {
      await seedCatalogue(game.db, game.catalogue);
    }
  });

  it('rejects a malformed catalogue and writes nothing', async () => {
    const broken = copyCatalogue(game.catalogue, 'broken');
    const target = broken.courses[1].levels[0].areas[0].targets[0];
    broken.courses[2].levels[0].areas[0].targets.push({ ...target });
    await expect(seedCatalogue(game.db, broken)).rejects.toThrow(`object ${target.object_id} appears twice`);
    const state = await game.db.selectFrom('catalogue_state').select('digest').executeTakeFirstOrThrow();
    expect(state.digest).toBe(game.catalogue.digest);
  });
});
