// The logged-in user's own account (application-spec §7): PUT /api/current_user (nickname,
// language, gravatar choices), POST /api/current_user/private_information (the welcome
// questionnaire) and DELETE /api/current_user (account deletion).
import type { FastifyPluginAsync } from 'fastify';
import type { CurrentUserResponse, CurrentUserUpdateRequest } from '../../shared/api';
import {
  ERROR_TEXTS,
  MESSAGES,
  nicknameErrors,
  normalizeNickname,
  parseBirthYear,
  privateInformationErrors,
  type PrivateInformationInput,
} from '../../shared/validation';
import { holdsNickname } from '../auth/nickname-key';
import { requireUser } from '../auth/session-user';
import { clearSessionCookie, isRecentlyAuthenticated, revokeUserSessions } from '../auth/sessions';
import { HttpError } from '../http-error';
import { ValidationFailed } from '../plugins/security';
import type { AccountRouteOptions } from './account-options';
import { int2Schema, int4Schema, text } from './schemas';
import { sessionResponse } from './session';

const updateSchema = {
  body: {
    type: 'object',
    additionalProperties: false,
    properties: {
      nickname: text(1024),
      locale: { type: 'string', enum: ['en', 'ja'] },
      gravatar_private: { type: 'boolean' },
      gravatar_public: { type: 'boolean' },
    },
  },
} as const;

// Types, sizes and the columns' ranges here (400); presence and the §5 rules, with their
// messages, in the handler (422).
const privateInformationSchema = {
  body: {
    type: 'object',
    additionalProperties: false,
    properties: {
      birth_year: { anyOf: [int4Schema, text(32)] },
      country_code: int4Schema,
      gender: text(32),
      reasons_for_participation: { type: 'array', maxItems: 32, items: text(1000) },
      relation_to_astronomy: int2Schema,
      time_spent_in_astronomy: int2Schema,
      way_to_know_this_site: text(1000),
    },
  },
} as const;

/** Postgres' unique_violation: a concurrent request took the nickname first. */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

function nicknameTaken(): ValidationFailed {
  return new ValidationFailed(ERROR_TEXTS.nicknameTaken, { nickname: [MESSAGES.taken] });
}

export const currentUserRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { db }) => {
  app.put<{ Body: CurrentUserUpdateRequest }>('/api/current_user', { schema: updateSchema }, async (request) => {
    const user = requireUser(request);
    const body = request.body;
    let nickname = user.nickname;
    if (body.nickname !== undefined) {
      const errors = nicknameErrors(body.nickname);
      if (errors.length > 0) throw new ValidationFailed(`Nickname ${errors[0]}`, { nickname: errors });
      nickname = normalizeNickname(body.nickname);
      // Compared as the unique indexes compare (users.nickname_key and nickname_skeleton):
      // full-width letters, zero-width joiners, case and look-alike letters do not make another name.
      const other = await db
        .selectFrom('users')
        .select('id')
        .where(holdsNickname(nickname))
        .where('id', '<>', user.id)
        .executeTakeFirst();
      if (other) throw nicknameTaken();
    }
    const gravatarPrivate = body.gravatar_private ?? user.gravatar_private;
    // §5: public display only with gravatar use on; turning use off clears it.
    const gravatarPublic = gravatarPrivate && (body.gravatar_public ?? user.gravatar_public);
    let updated;
    try {
      updated = await db
        .updateTable('users')
        .set({
          nickname,
          locale: body.locale ?? user.locale,
          gravatar_private: gravatarPrivate,
          gravatar_public: gravatarPublic,
        })
        .where('id', '=', user.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error)) throw nicknameTaken();
      throw error;
    }
    const session = await sessionResponse(db, { ...updated, admin: user.admin });
    const response: CurrentUserResponse = { current_user: session.current_user! };
    return response;
  });

  app.post<{ Body: PrivateInformationInput }>(
    '/api/current_user/private_information',
    { schema: privateInformationSchema },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      const errors = privateInformationErrors(body);
      const fields = Object.keys(errors);
      if (fields.length > 0) throw new ValidationFailed(`${fields.join(', ')}: ${errors[fields[0]][0]}`, errors);
      const values = {
        birth_year: parseBirthYear(body.birth_year!),
        country_code: body.country_code!,
        gender: body.gender!,
        reasons_for_participation: body.reasons_for_participation!.map((reason) => reason.trim()),
        relation_to_astronomy: body.relation_to_astronomy!,
        time_spent_in_astronomy: body.time_spent_in_astronomy!,
        way_to_know_this_site: body.way_to_know_this_site!.trim(),
      };
      await db
        .insertInto('private_informations')
        .values({ user_id: user.id, ...values })
        .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ ...values, updated_at: new Date() }))
        .execute();
      return reply.code(204).send();
    },
  );

  app.delete('/api/current_user', async (request, reply) => {
    const user = requireUser(request);
    // The spec's call has no payload: the password is asked for by a login just before (the
    // profile's delete dialog posts POST /api/session first), which stamps this session's
    // authenticated_at. An account without a password yet has none to ask for.
    if (user.password_hash !== null && !(await isRecentlyAuthenticated(db, request.sessionTokenHash)))
      throw new HttpError(403, ERROR_TEXTS.reauthenticationNeeded);
    // The sessions end first and at once, as at logout: no request of this process goes on as
    // the user (the game's hot routes reuse recent session lookups) while the account goes.
    await revokeUserSessions(db, user.id);
    await db.transaction().execute(async (trx) => {
      // Sessions, the questionnaire and reset links go with the row (ON DELETE CASCADE);
      // classification results stay, unlinked (answers and quests: ON DELETE SET NULL).
      await trx.deleteFrom('email_tokens').where('email', '=', user.email.toLowerCase()).execute();
      await trx.deleteFrom('users').where('id', '=', user.id).execute();
    });
    clearSessionCookie(request, reply);
    return reply.code(204).send();
  });
};
