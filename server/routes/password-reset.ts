// Password reset by mail (application-spec §2, §7): POST /api/password_reset/verify_email
// always answers the same 204, whether or not the address is registered, and mails a one-time
// link (1 h) only when it is, to the app's page #/password_reset/confirm, whose button (POST
// /api/password_reset/confirm, see mail-links.ts) logs the account in with its password cleared
// and its other sessions ended, so the access gate forces the set-password dialog.
import type { FastifyPluginAsync } from 'fastify';
import type { PasswordResetVerifyEmailRequest } from '../../shared/api';
import { MESSAGES } from '../../shared/validation';
import { parseMailbox } from '../auth/email-address';
import { issueEmailToken } from '../auth/email-tokens';
import { revokeUserSessions } from '../auth/sessions';
import { findUserByEmail } from '../auth/users';
import { renderMail } from '../mail/templates';
import { LIMITS, rateLimited } from '../plugins/rate-limits';
import { ValidationFailed } from '../plugins/security';
import type { AccountRouteOptions } from './account-options';
import { mailLinkUrl, registerMailLinkRoutes } from './mail-links';
import { text } from './schemas';

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
        const link = mailLinkUrl(config.publicUrl, 'password_reset', token);
        return { to: user.email, link, ...renderMail('password_reset', user.locale, link) };
      });
      return reply.code(204).send();
    },
  );

  registerMailLinkRoutes(
    app,
    { db, config },
    {
      kind: 'password_reset',
      async act(trx, row) {
        // Deleting an account deletes its links (user_id cascades), so the user exists.
        const user = await trx
          .updateTable('users')
          .set({ password_hash: null })
          .where('id', '=', row.user_id!)
          .returningAll()
          .executeTakeFirstOrThrow();
        // Whoever knew the old password is logged out everywhere.
        await revokeUserSessions(trx, user.id);
        return user;
      },
    },
  );
};
