// The routes of a mail link (sign-up, password reset), which asks before it acts. Mail scanners
// and link previews open every link in a mail, and a GET that acted would lock a volunteer out of
// a reset (the scanner holding the session) or, for sign-up, switch whoever opens someone else's
// link to that account (login CSRF). So the mail links to the app's page #/{kind}/confirm?token=…
// (the token after '#' is never sent to a server, nor in a Referer), which:
//   POST /api/{kind}/link     describes the link (its address and language, or why it cannot be
//                             used) and changes nothing;
//   POST /api/{kind}/confirm  when the page's button is pressed: consumes the token, acts, ends
//                             the session the browser came with and logs the link's account in.
// The token travels in JSON bodies, not in URLs that request logs and proxies keep; JSON is
// something a cross-site form cannot send, and the Origin check guards the POSTs besides.
// GET /api/{kind}/confirm?token=… is the address older mails carry: it only redirects to the page.
// All three count against LIMITS.mailLink, one counter per IP, against guessing.
import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Locale, MailLinkFailure, MailLinkKind, MailLinkRequest, MailLinkResponse } from '../../shared/api';
import { consumeEmailToken, peekEmailToken, type EmailTokenRow, type LinkFailure } from '../auth/email-tokens';
import { grantAdminByEmail, type UserRow } from '../auth/session-user';
import { createSession, revokeRequestSession, setSessionCookie } from '../auth/sessions';
import type { ServerConfig } from '../config';
import type { Database } from '../db/schema';
import { LIMITS, rateLimited } from '../plugins/rate-limits';
import { text } from './schemas';
import { sessionResponse } from './session';

/** Where a mail's link points: the app's page that asks before it acts. */
export function mailLinkUrl(publicUrl: string, kind: MailLinkKind, token: string): string {
  return `${publicUrl}/#/${kind}/confirm?token=${token}`;
}

/** Tokens are 43 characters; the schema bounds what a guess may send. */
const TOKEN = text(200);

/** The token is optional: a link cut short still reaches the page, which says it is not valid. */
const legacyQuerySchema = {
  querystring: { type: 'object', properties: { token: TOKEN } },
} as const;

const tokenBodySchema = {
  body: { type: 'object', required: ['token'], additionalProperties: false, properties: { token: TOKEN } },
} as const;

const FAILURE_MESSAGES: Record<LinkFailure, string> = {
  used: 'This link has already been used: each link works only once.',
  expired: 'This link has expired.',
  unknown: 'This link is not valid. Please check that it was copied whole.',
};

function linkLocale(locale: string | undefined): Locale | null {
  if (locale === undefined) return null;
  return locale === 'ja' ? 'ja' : 'en';
}

export interface MailLinkAction {
  kind: MailLinkKind;
  /** What the link does, in the transaction that consumed it; returns the account to log in. */
  act(trx: Transaction<Database>, row: EmailTokenRow): Promise<UserRow>;
}

export function registerMailLinkRoutes(
  app: FastifyInstance,
  { db, config }: { db: Kysely<Database>; config: ServerConfig },
  { kind, act }: MailLinkAction,
): void {
  const limited = rateLimited(app, LIMITS.mailLink, config.rateLimits);
  const adminEmails = new Set(config.adminEmails);

  app.get<{ Querystring: { token?: string } }>(
    `/api/${kind}/confirm`,
    { schema: legacyQuerySchema, preHandler: limited },
    async (request, reply) =>
      reply.redirect(mailLinkUrl(config.publicUrl, kind, encodeURIComponent(request.query.token ?? '')), 303),
  );

  app.post<{ Body: MailLinkRequest }>(
    `/api/${kind}/link`,
    { schema: tokenBodySchema, preHandler: limited },
    async (request): Promise<MailLinkResponse> => {
      const link = await peekEmailToken(db, kind, request.body.token);
      if (!link.ok) return { state: link.reason, email: null, locale: linkLocale(link.locale) };
      return { state: 'ready', email: link.row.email, locale: linkLocale(link.row.locale) };
    },
  );

  app.post<{ Body: MailLinkRequest }>(
    `/api/${kind}/confirm`,
    { schema: tokenBodySchema, preHandler: limited },
    async (request, reply) => {
      const outcome = await db.transaction().execute(async (trx) => {
        const consumed = await consumeEmailToken(trx, kind, request.body.token);
        if (!consumed.ok) return consumed;
        const user = await act(trx, consumed.row);
        // Whoever was logged in on this browser is logged out: the page said so before the press.
        await revokeRequestSession(trx, request);
        return { ok: true as const, user, sessionToken: await createSession(trx, user.id) };
      });
      if (!outcome.ok) {
        // 409, which the app's request helper leaves to the page (application-spec §8): the
        // link changed (used in another tab, expired) between the page's opening and the press.
        const failure: MailLinkFailure = {
          statusCode: 409,
          error: 'Conflict',
          message: FAILURE_MESSAGES[outcome.reason],
          state: outcome.reason,
          locale: linkLocale(outcome.locale),
        };
        return reply.code(409).send(failure);
      }
      setSessionCookie(request, reply, outcome.sessionToken);
      return sessionResponse(db, grantAdminByEmail(outcome.user, adminEmails));
    },
  );
}
