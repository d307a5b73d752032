// The present202501 gift campaign (application-spec §2 gift screen, §7):
//   POST   /api/present202501       apply, or update an application (200 with the application)
//   DELETE /api/present202501       cancel (204, also when there was nothing to cancel)
//   GET    /api/present202501/stat  {count, min_galaxies, application?, opens_at, deadline}
// Applying outside the window (PRESENT_OPENS_AT .. PRESENT_DEADLINE) is 403 with the window in
// the message; blank or too long fields are 400 with {message, errors: {field: [...]}}; too few
// classified galaxies is 422 with {required} — the status the form turns into its
// "requirements not fulfilled" alert (§8). Cancelling is allowed at any time: withdrawing one's
// own address is never refused.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { PresentApplication, PresentStat } from '../../shared/api';
import { requireUser } from '../auth/session-user';
import type { ServerConfig } from '../config';
import type { Database } from '../db/schema';
import { HttpError } from '../http-error';
import {
  FIELDS_NOT_FILLED,
  isPresentOpen,
  notEnoughGalaxies,
  validatePresentApplication,
  type PresentInput,
} from '../notifications/present';
import { int4Schema, text } from './schemas';

const optionalText = { ...text(10_000), type: ['string', 'null'] } as const;

const applicationBody = {
  type: 'object',
  additionalProperties: false,
  // Nothing is required here: a missing field gets the form's own 'Cannot be blank'.
  properties: {
    name: optionalText,
    country_code: { ...int4Schema, type: ['integer', 'null'] },
    zip_code: optionalText,
    address1: optionalText,
    address2: optionalText,
    address3: optionalText,
    message: optionalText,
  },
} as const;

const asUser = { preValidation: async (request: FastifyRequest) => void requireUser(request) };

/** JST, as the campaign announces its dates (application-spec §9). */
function formatJst(date: Date): string {
  return `${new Date(date.getTime() + 9 * 3600_000).toISOString().slice(0, 16).replace('T', ' ')} JST`;
}

/**
 * Classified galaxies: the user's rows in the game's answers table, every course, as the counts
 * kept per course (migration 0006) sum them.
 */
export async function countClassifiedGalaxies(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('course_answer_counts')
    .select(sql<number>`coalesce(sum(answers_count), 0)::bigint`.as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.count;
}

export const presentRoutes: FastifyPluginAsync<{ db: Kysely<Database>; config: ServerConfig }> = async (
  app,
  { db, config },
) => {
  const { opensAt, deadline, minGalaxies } = config.present;

  app.get('/api/present202501/stat', asUser, async (request) => {
    const user = requireUser(request);
    const [count, application] = await Promise.all([
      countClassifiedGalaxies(db, user.id),
      db
        .selectFrom('present_applications')
        .select(['name', 'country_code', 'zip_code', 'address1', 'address2', 'address3', 'message'])
        .where('user_id', '=', user.id)
        .executeTakeFirst(),
    ]);
    const stat: PresentStat = {
      count,
      min_galaxies: minGalaxies,
      ...(application ? { application } : {}),
      opens_at: opensAt.toISOString(),
      deadline: deadline.toISOString(),
    };
    return stat;
  });

  app.post<{ Body: PresentInput }>(
    '/api/present202501',
    { ...asUser, schema: { body: applicationBody } },
    async (request, reply) => {
      const user = requireUser(request);
      const now = new Date();
      if (now < opensAt)
        throw new HttpError(403, `The gift campaign is not open yet: applications open at ${formatJst(opensAt)}.`);
      if (!isPresentOpen({ opensAt, deadline }, now))
        throw new HttpError(403, `The gift campaign is closed: the deadline was ${formatJst(deadline)}.`);
      const checked = validatePresentApplication(request.body ?? {});
      if (!checked.ok)
        return reply
          .code(400)
          .send({ statusCode: 400, error: 'Bad Request', message: FIELDS_NOT_FILLED, errors: checked.errors });
      const count = await countClassifiedGalaxies(db, user.id);
      if (count < minGalaxies)
        return reply.code(422).send({
          statusCode: 422,
          error: 'Unprocessable Entity',
          message: notEnoughGalaxies(minGalaxies),
          required: minGalaxies,
          count,
        });
      const application: PresentApplication = checked.application;
      await db
        .insertInto('present_applications')
        .values({ user_id: user.id, ...application })
        .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ ...application, updated_at: now }))
        .execute();
      return application;
    },
  );

  app.delete('/api/present202501', asUser, async (request, reply) => {
    const user = requireUser(request);
    await db.deleteFrom('present_applications').where('user_id', '=', user.id).execute();
    return reply.code(204).send();
  });
};
