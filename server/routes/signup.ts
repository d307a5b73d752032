// Sign-up by mail (application-spec §2, §4, §7): POST /api/signup/verify_email mails a one-time
// link (24 h) to the app's page #/signup/confirm, whose button (POST /api/signup/confirm, see
// mail-links.ts) creates the account and logs it in; the app's access gate then asks for a
// password, a nickname and the questionnaire.
import type { FastifyPluginAsync } from 'fastify';
import type { SignupVerifyEmailRequest } from '../../shared/api';
import { ERROR_TEXTS, MESSAGES } from '../../shared/validation';
import { parseMailbox } from '../auth/email-address';
import { issueEmailToken } from '../auth/email-tokens';
import { findUserByEmail } from '../auth/users';
import { HttpError } from '../http-error';
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
    properties: { email: text(1024), locale: { type: 'string', enum: ['en', 'ja'] } },
  },
} as const;

export const signupRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { db, config, mailer }) => {
  app.post<{ Body: SignupVerifyEmailRequest }>(
    '/api/signup/verify_email',
    { schema: verifyEmailSchema, preHandler: rateLimited(app, LIMITS.signup, config.rateLimits) },
    async (request, reply) => {
      const { locale = 'en' } = request.body;
      // The strict gate (email-address.ts): the link goes to this one mailbox and no other.
      const email = parseMailbox(request.body.email);
      if (email === undefined)
        throw new ValidationFailed(`Email ${MESSAGES.invalidFormat}`, { email: [MESSAGES.invalidFormat] });
      // The spec's 409 tells whether an address is registered; the hard rate limit above is
      // what keeps that from being used to list addresses.
      if (await findUserByEmail(db, email)) throw new HttpError(409, ERROR_TEXTS.alreadyRegistered);
      const token = await issueEmailToken(db, {
        purpose: 'signup',
        email,
        userId: null,
        locale,
      });
      const link = mailLinkUrl(config.publicUrl, 'signup', token);
      try {
        await mailer.send({ to: email, link, ...renderMail('signup', locale, link) });
      } catch (error) {
        request.log.error({ err: error }, 'sign-up mail could not be sent');
        throw new HttpError(503, 'The verification mail could not be sent. Please try again later.');
      }
      return reply.code(204).send();
    },
  );

  registerMailLinkRoutes(
    app,
    { db, config },
    {
      kind: 'signup',
      async act(trx, { email, locale }) {
        // The address may have been registered through another link meanwhile: the link still
        // proves the mailbox, so it logs that account in.
        // Two links used at once may both find no account: the unique index on lower(email)
        // lets one insert win, and the other reads the winner's row.
        return (
          (await findUserByEmail(trx, email)) ??
          (await trx
            .insertInto('users')
            .values({ email, nickname: '', locale, password_hash: null })
            .onConflict((conflict) => conflict.doNothing())
            .returningAll()
            .executeTakeFirst()) ??
          (await findUserByEmail(trx, email))!
        );
      },
    },
  );
};
