// Opening and closing server-side sessions. A session is a random 256-bit token in an HttpOnly
// cookie; the database keeps only its SHA-256 (session-user.ts reads it back on each request).
// A revocation deletes the rows and makes this process forget its recent session lookups. Called
// with `db` itself, the forgetting follows the commit and the sessions end at once; called within
// a transaction it precedes the commit, and a hot route's lookup made in between may be reused for
// up to a second (session-user.ts, RECENT_SESSION_MS).
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { SESSION_COOKIE, forgetRecentSessions, hashToken } from './session-user';

export const SESSION_TTL_MS = 30 * 24 * 3600_000;

/** A token of 256 random bits, URL-safe: session cookies and mail links. */
export function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** How recent a password must be for what asks for one again (deleting the account). */
export const RECENT_AUTHENTICATION_MS = 5 * 60_000;

/**
 * Creates a session for the user; returns the token for the cookie. `authenticated`: the account's
 * password was given for it (a login), which stamps its authenticated_at.
 */
export async function createSession(
  db: Kysely<Database>,
  userId: number,
  { authenticated = false }: { authenticated?: boolean } = {},
): Promise<string> {
  const token = randomToken();
  const now = Date.now();
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      expires_at: new Date(now + SESSION_TTL_MS),
      authenticated_at: authenticated ? new Date(now) : null,
    })
    .execute();
  return token;
}

/** Whether the session of this token hash was given the account's password within RECENT_AUTHENTICATION_MS. */
export async function isRecentlyAuthenticated(db: Kysely<Database>, tokenHash: string | null): Promise<boolean> {
  if (!tokenHash) return false;
  const row = await db
    .selectFrom('sessions')
    .select('authenticated_at')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return !!row?.authenticated_at && Date.now() - row.authenticated_at.getTime() <= RECENT_AUTHENTICATION_MS;
}

function cookieOptions(request: FastifyRequest) {
  // request.protocol is 'https' behind a TLS-terminating proxy only with TRUST_PROXY set.
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: SESSION_TTL_MS / 1000 });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}

/** Revokes the session the request came with, live or not (rotation at login, logout). */
export async function revokeRequestSession(db: Kysely<Database>, request: FastifyRequest): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
  forgetRecentSessions();
}

/** Revokes every session of the user but the one whose hash is kept (null: all of them). */
export async function revokeUserSessions(
  db: Kysely<Database>,
  userId: number,
  keepTokenHash: string | null = null,
): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepTokenHash) query = query.where('token_hash', '<>', keepTokenHash);
  await query.execute();
  forgetRecentSessions();
}
