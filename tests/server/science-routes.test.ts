// The research dashboard's calls (server/routes/science.ts) on PGlite and PostgreSQL: only an
// administrator gets them; answers posted through the API are in the summary and in the
// streamed export at once (the route sums what the background has not yet).
import { afterEach, describe, expect, it } from 'vitest';
import type { Answer } from '../../shared/api';
import type { ScienceSummary } from '../../shared/science';
import { createTestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { openGame, type GameFixture } from '../helpers/sky';

describe.each(DATABASE_KINDS)('science routes on %s', (kind) => {
  let game: GameFixture | undefined;
  afterEach(async () => {
    await game?.close();
    game = undefined;
  });

  it('answers administrators only', async () => {
    game = await openGame(kind);
    const volunteer = await createTestUser(game.db);
    for (const url of ['/api/admin/science', '/api/admin/courses/season2/export?format=csv']) {
      expect((await game.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await game.app.inject({ method: 'GET', url, cookies: volunteer.cookies })).statusCode).toBe(403);
    }
    const admin = await createTestUser(game.db, { admin: true });
    const unknown = await game.app.inject({
      method: 'GET',
      url: '/api/admin/courses/nowhere/export?format=csv',
      cookies: admin.cookies,
    });
    expect(unknown.statusCode).toBe(404);
    const badFormat = await game.app.inject({
      method: 'GET',
      url: '/api/admin/courses/season2/export?format=xlsx',
      cookies: admin.cookies,
    });
    expect(badFormat.statusCode).toBe(400);
  });

  it('shows answers posted through the API in the summary and the export', async () => {
    game = await openGame(kind);
    const volunteer = await createTestUser(game.db, { nickname: 'SecretNickname' });
    const admin = await createTestUser(game.db, { admin: true });
    const quest = (
      await game.app.inject({ method: 'GET', url: '/api/courses/season2/quests/current', cookies: volunteer.cookies })
    ).json() as { id: number; questions: { object_id: number }[] };
    const answered = quest.questions.slice(0, 2).map((question) => question.object_id);
    for (const objectId of answered) {
      const answer: Answer = {
        object_id: objectId,
        galaxy_type: 'elliptical',
        interaction: 'yes',
        ring: false,
        fan: true,
        tail: false,
        distorted: false,
      };
      const posted = await game.app.inject({
        method: 'POST',
        url: `/api/quests/${quest.id}/answers`,
        cookies: volunteer.cookies,
        payload: answer,
      });
      expect(posted.statusCode).toBe(200);
    }
    const summary = (
      await game.app.inject({ method: 'GET', url: '/api/admin/science', cookies: admin.cookies })
    ).json() as ScienceSummary;
    const season2 = summary.courses.find((course) => course.course_id === 'season2')!;
    expect(season2).toMatchObject({ answered: 2, answers: 2, volunteers: 1, retired: 0 });
    expect(season2.targets).toBe(
      game.catalogue.courses
        .find((course) => course.id === 'season2')!
        .levels.flatMap((level) => level.areas)
        .reduce((sum, area) => sum + area.targets.length, 0),
    );
    expect(season2.levels.reduce((sum, level) => sum + level.answered, 0)).toBe(2);
    expect(summary.days).toHaveLength(30);
    expect(summary.days[29]!.answers).toBe(2);
    expect(summary.days[29]!.volunteers).toBe(1);
    expect(summary.volunteers[0]).toMatchObject({ user_id: volunteer.id, answers: 2 });
    expect(summary.estimated_at).toBeNull();

    const csv = await game.app.inject({
      method: 'GET',
      url: '/api/admin/courses/season2/export?format=csv',
      cookies: admin.cookies,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="galaxy-cruise-season2.csv"');
    // The ECSV header's '#' lines first.
    const [header, ...rows] = csv.body
      .trimEnd()
      .split('\r\n')
      .filter((line) => !line.startsWith('#'));
    const columns = header!.split(',');
    expect(rows).toHaveLength(season2.targets);
    for (const objectId of answered) {
      const row = rows.map((line) => line.split(',')).find((cells) => Number(cells[0]) === objectId)!;
      const cell = (name: string) => row[columns.indexOf(name)];
      expect(cell('volunteers')).toBe('1');
      expect(cell('n_elliptical')).toBe('1');
      expect(cell('f_fan')).toBe('1');
      expect(cell('consensus_galaxy_type')).toBe('elliptical');
      expect(cell('consensus_interaction')).toBe('yes');
    }

    // The raw answers and the volunteers' reliability: the volunteer a pseudonym, the same in both,
    // and neither the e-mail nor the nickname anywhere.
    const table = async (name: string) => {
      const response = await game!.app.inject({
        method: 'GET',
        url: `/api/admin/courses/season2/export?format=csv&table=${name}`,
        cookies: admin.cookies,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toBe(`attachment; filename="galaxy-cruise-season2-${name}.csv"`);
      const user = await game!.db
        .selectFrom('users')
        .select(['email', 'nickname'])
        .where('id', '=', volunteer.id)
        .executeTakeFirstOrThrow();
      expect(response.body).not.toContain(user.email);
      expect(response.body).not.toContain(user.nickname);
      const [names, ...lines] = response.body
        .trimEnd()
        .split('\r\n')
        .filter((line) => !line.startsWith('#'));
      const index = names!.split(',').indexOf('volunteer');
      return lines.map((line) => line.split(',')[index]);
    };
    const answers = await table('answers');
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(answers[1]).toBe(answers[0]);
    expect(await table('volunteers')).toEqual([answers[0]]);
    const unknown = await game.app.inject({
      method: 'GET',
      url: '/api/admin/courses/season2/export?format=csv&table=users',
      cookies: admin.cookies,
    });
    expect(unknown.statusCode).toBe(400);
  });
});
