// Sign-up by mail (application-spec §2, §4, §7): POST /api/signup/verify_email mails a one-time
// link (24 h); GET /api/signup/confirm?token=… creates the account, logs it in and sends the
// browser to the app, whose access gate then asks for a password, a nickname and the
// questionnaire.
import type { FastifyPluginAsync } from 'fastify';
import type { SignupVerifyEmailRequest } from '../../src/shared/api';
import { ERROR_TEXTS, MESSAGES } from '../../src/shared/validation';
import { parseMailbox } from '../auth/email-address';
import { consumeEmailToken, issueEmailToken } from '../auth/email-tokens';
import { createSession, revokeRequestSession, setSessionCookie } from '../auth/sessions';
import { findUserByEmail } from '../auth/users';
import { HttpError } from '../http-error';
import { linkFailurePage } from '../mail/link-page';
import { renderMail } from '../mail/templates';
import { LIMITS, rateLimited } from '../plugins/rate-limits';
import { ValidationFailed } from '../plugins/security';
import type { AccountRouteOptions } from './account-options';
import { text } from './schemas';

const verifyEmailSchema = {
  body: {
    type: 'object',
    required: ['email'],
    additionalProperties: false,
    properties: { email: text(1024), locale: { type: 'string', enum: ['en', 'ja'] } },
  },
} as const;

/** The token is optional in the schema: a link without one gets the 'not valid' page, not JSON. */
export const linkQuerySchema = {
  querystring: {
    type: 'object',
    properties: { token: { type: 'string', maxLength: 200 } },
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
      const link = `${config.publicUrl}/api/signup/confirm?token=${token}`;
      try {
        await mailer.send({ to: email, link, ...renderMail('signup', locale, link) });
      } catch (error) {
        request.log.error({ err: error }, 'sign-up mail could not be sent');
        throw new HttpError(503, 'The verification mail could not be sent. Please try again later.');
      }
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: { token?: string } }>(
    '/api/signup/confirm',
    { schema: linkQuerySchema, preHandler: rateLimited(app, LIMITS.mailLink, config.rateLimits) },
    async (request, reply) => {
      const outcome = await db.transaction().execute(async (trx) => {
        const consumed = await consumeEmailToken(trx, 'signup', request.query.token ?? '');
        if (!consumed.ok) return consumed;
        const { email, locale } = consumed.row;
        // The address may have been registered through another link meanwhile: the link still
        // proves the mailbox, so it logs that account in.
        // Two links followed at once may both find no account: the unique index on
        // lower(email) lets one insert win, and the other reads the winner's row.
        const user =
          (await findUserByEmail(trx, email)) ??
          (await trx
            .insertInto('users')
            .values({ email, nickname: '', locale, password_hash: null })
            .onConflict((conflict) => conflict.doNothing())
            .returningAll()
            .executeTakeFirst()) ??
          (await findUserByEmail(trx, email))!;
        await revokeRequestSession(trx, request);
        return { ok: true as const, sessionToken: await createSession(trx, user.id) };
      });
      if (!outcome.ok)
        return reply
          .code(outcome.reason === 'unknown' ? 404 : 410)
          .type('text/html; charset=utf-8')
          .send(linkFailurePage('signup', outcome.reason, outcome.locale));
      setSessionCookie(request, reply, outcome.sessionToken);
      return reply.redirect(`${config.publicUrl}/#/`, 303);
    },
  );
};
