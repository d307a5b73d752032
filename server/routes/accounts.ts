// Accounts (application-spec §7): POST /api/session (login), DELETE /api/session (logout) and
// PUT /api/signup/password; accountRoutes also registers the sign-up, password-reset,
// current-user and nickname groups with the mailer they share.
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { LoginRequest, PasswordUpdateRequest } from '../../shared/api';
import { ERROR_TEXTS, MESSAGES, passwordErrors } from '../../shared/validation';
import { parseMailbox } from '../auth/email-address';
import { isGuessablePassword } from '../auth/password-strength';
import { idleCutoff } from '../auth/session-activity';
import { hashPassword, passwordNeedsRehash, verifyDummyPassword, verifyPassword } from '../auth/passwords';
import { grantAdminByEmail, requireUser } from '../auth/session-user';
import { findUserByEmail } from '../auth/users';
import {
  clearSessionCookie,
  createSession,
  revokeRequestSession,
  revokeUserSessions,
  setSessionCookie,
} from '../auth/sessions';
import type { ServerConfig } from '../config';
import type { Database } from '../db/schema';
import { HttpError } from '../http-error';
import { createMailer } from '../mail/mailer';
import { LIMITS, rateLimited } from '../plugins/rate-limits';
import { ValidationFailed } from '../plugins/security';
import type { AccountRouteOptions } from './account-options';
import { text } from './schemas';
import { currentUserRoutes } from './current-user';
import { nicknameRoutes } from './nicknames';
import { passwordResetRoutes } from './password-reset';
import { sessionResponse } from './session';
import { signupRoutes } from './signup';

/** Long enough for any 128-character password in any script; longer is simply wrong. Never stored as given. */
const PASSWORD_FIELD = { type: 'string', maxLength: 1024 } as const;

const loginSchema = {
  body: {
    type: 'object',
    required: ['email', 'password'],
    additionalProperties: false,
    properties: { email: text(1024), password: PASSWORD_FIELD },
  },
} as const;

const passwordSchema = {
  body: {
    type: 'object',
    required: ['password'],
    additionalProperties: false,
    properties: { password: PASSWORD_FIELD, current_password: PASSWORD_FIELD },
  },
} as const;

const loginRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { db, config }) => {
  const adminEmails = new Set(config.adminEmails);

  app.post<{ Body: LoginRequest }>(
    '/api/session',
    { schema: loginSchema, preHandler: rateLimited(app, LIMITS.login, config.rateLimits) },
    async (request, reply) => {
      const { password } = request.body;
      // No account has an address that is not one mailbox (email-address.ts).
      const email = parseMailbox(request.body.email);
      const user = email === undefined ? undefined : await findUserByEmail(db, email);
      // An unknown address (or an account without a password yet) is checked against a dummy
      // hash, so that it takes as long as a known one.
      const valid = user?.password_hash
        ? await verifyPassword(user.password_hash, password)
        : await verifyDummyPassword(password);
      if (!user || !valid) throw new HttpError(422, ERROR_TEXTS.invalidCredentials);
      const rehashed = passwordNeedsRehash(user.password_hash!) ? await hashPassword(password) : undefined;
      const token = await db.transaction().execute(async (trx) => {
        if (rehashed)
          await trx.updateTable('users').set({ password_hash: rehashed }).where('id', '=', user.id).execute();
        // Rotation: the session the request came with (if any) ends; a fresh token begins.
        await revokeRequestSession(trx, request);
        // The user's sessions that have ended (expired or idle) go as well.
        await trx
          .deleteFrom('sessions')
          .where('user_id', '=', user.id)
          .where((eb) => eb.or([eb('expires_at', '<=', new Date()), eb('last_used_at', '<=', idleCutoff())]))
          .execute();
        return createSession(trx, user.id, { authenticated: true });
      });
      setSessionCookie(request, reply, token);
      return sessionResponse(
        db,
        grantAdminByEmail({ ...user, password_hash: rehashed ?? user.password_hash }, adminEmails),
      );
    },
  );

  app.delete('/api/session', async (request, reply) => {
    await revokeRequestSession(db, request);
    clearSessionCookie(request, reply);
    return reply.code(204).send();
  });

  app.put<{ Body: PasswordUpdateRequest }>(
    '/api/signup/password',
    { schema: passwordSchema, preHandler: rateLimited(app, LIMITS.passwordChange, config.rateLimits) },
    async (request, reply) => {
      const user = requireUser(request);
      const { password, current_password: currentPassword } = request.body;
      const errors = passwordErrors(password);
      if (errors.length === 0 && isGuessablePassword(password, [user.email, user.nickname]))
        errors.push(MESSAGES.tooCommon);
      if (errors.length > 0) throw new ValidationFailed(`Password ${errors[0]}`, { password: errors });
      if (user.password_hash) {
        if (!currentPassword)
          throw new ValidationFailed(`Current password ${MESSAGES.blank}`, { current_password: [MESSAGES.blank] });
        if (!(await verifyPassword(user.password_hash, currentPassword)))
          throw new ValidationFailed(ERROR_TEXTS.currentPasswordMismatch, { current_password: [MESSAGES.mismatch] });
      }
      const hash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
        // Whoever else holds a session (or a reset link) of this account loses it.
        await revokeUserSessions(trx, user.id, request.sessionTokenHash);
        await trx
          .deleteFrom('email_tokens')
          .where('user_id', '=', user.id)
          .where('purpose', '=', 'password_reset')
          .where('used_at', 'is', null)
          .execute();
      });
      return reply.code(204).send();
    },
  );
};

export const accountRoutes: FastifyPluginAsync<{ db: Kysely<Database>; config: ServerConfig }> = async (
  app,
  { db, config },
) => {
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDirectory: path.join(config.varDirectory, 'outbox'),
    from: config.mailFrom,
    logger: app.log,
  });
  app.addHook('onClose', async () => mailer.close());
  const options: AccountRouteOptions = { db, config, mailer };
  await app.register(loginRoutes, options);
  await app.register(signupRoutes, options);
  await app.register(passwordResetRoutes, options);
  await app.register(currentUserRoutes, options);
  await app.register(nicknameRoutes, options);
};
