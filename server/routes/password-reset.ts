// Password reset by mail (application-spec §2, §7): POST /api/password_reset/verify_email
// always answers the same 204, whether or not the address is registered, and mails a one-time
// link (1 h) only when it is; GET /api/password_reset/confirm?token=… logs the account in with
// its password cleared, so the access gate forces the set-password dialog.
import type { FastifyPluginAsync } from 'fastify';
import type { PasswordResetVerifyEmailRequest } from '../../src/shared/api';
import { MESSAGES } from '../../src/shared/validation';
import { parseMailbox } from '../auth/email-address';
import { consumeEmailToken, issueEmailToken } from '../auth/email-tokens';
import { createSession, revokeUserSessions, setSessionCookie } from '../auth/sessions';
import { findUserByEmail } from '../auth/users';
import { linkFailurePage } from '../mail/link-page';
import { renderMail } from '../mail/templates';
import { LIMITS, rateLimited } from '../plugins/rate-limits';
import { ValidationFailed } from '../plugins/security';
import type { AccountRouteOptions } from './account-options';
import { text } from './schemas';
import { linkQuerySchema } from './signup';

const verifyEmailSchema = {
  body: {
    type: 'object',
    required: ['email'],
    additionalProperties: false,
    properties: { email: text(1024) },
  },
} as const;

export const passwordResetRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { db, config, mailer }) => {
  app.post<{ Body: PasswordResetVerifyEmailRequest }>(
    '/api/password_reset/verify_email',
    { schema: verifyEmailSchema, preHandler: rateLimited(app, LIMITS.passwordReset, config.rateLimits) },
    async (request, reply) => {
      const email = parseMailbox(request.body.email);
      if (email === undefined)
        throw new ValidationFailed(`Email ${MESSAGES.invalidFormat}`, { email: [MESSAGES.invalidFormat] });
      // Looked up and mailed after the answer, so that neither the answer nor its timing
      // tells whether the address is registered.
      mailer.later(async () => {
        const user = await findUserByEmail(db, email);
        if (!user) return undefined;
        const token = await issueEmailToken(db, {
          purpose: 'password_reset',
          email: user.email,
          userId: user.id,
          locale: user.locale,
        });
        const link = `${config.publicUrl}/api/password_reset/confirm?token=${token}`;
        return { to: user.email, link, ...renderMail('password_reset', user.locale, link) };
      });
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: { token?: string } }>(
    '/api/password_reset/confirm',
    { schema: linkQuerySchema, preHandler: rateLimited(app, LIMITS.mailLink, config.rateLimits) },
    async (request, reply) => {
      const outcome = await db.transaction().execute(async (trx) => {
        const consumed = await consumeEmailToken(trx, 'password_reset', request.query.token ?? '');
        if (!consumed.ok) return consumed;
        // Deleting an account deletes its links (user_id cascades), so the user exists.
        const userId = consumed.row.user_id!;
        await trx.updateTable('users').set({ password_hash: null }).where('id', '=', userId).execute();
        // Whoever knew the old password is logged out everywhere.
        await revokeUserSessions(trx, userId);
        return { ok: true as const, sessionToken: await createSession(trx, userId) };
      });
      if (!outcome.ok)
        return reply
          .code(outcome.reason === 'unknown' ? 404 : 410)
          .type('text/html; charset=utf-8')
          .send(linkFailurePage('password_reset', outcome.reason, outcome.locale));
      setSessionCookie(request, reply, outcome.sessionToken);
      return reply.redirect(`${config.publicUrl}/#/`, 303);
    },
  );
};
