// The door between server-side sessions and every route: an onRequest hook resolves the session
// cookie to its user once per request (request.user), and routes ask for what they need with
// requireUser / requireAdmin. The cookie carries a random token; only its SHA-256 is stored, so a
// database leak does not leak live sessions.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import { HttpError } from '../http-error';
import type { Database, UsersTable } from '../db/schema';
import { idleCutoff, noteSessionUse } from './session-activity';

export const SESSION_COOKIE = 'galaxy_cruise_session';

export type UserRow = Selectable<UsersTable>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The session check may reuse a lookup less than a second old (see RECENT_SESSION_MS). */
    recentSession?: boolean;
  }
  interface FastifyRequest {
    /** The user of a live session, or null for a guest. */
    user: UserRow | null;
    /** SHA-256 of the session token when the session is live. */
    sessionTokenHash: string | null;
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The user of a live session: not expired, and used within SESSION_IDLE_MS (session-activity.ts). */
export async function findSessionUser(db: Kysely<Database>, token: string | undefined): Promise<UserRow | null> {
  if (!token) return null;
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select('sessions.last_used_at as session_last_used_at')
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', new Date())
    .where('sessions.last_used_at', '>', idleCutoff())
    .executeTakeFirst();
  if (!row) return null;
  const { session_last_used_at: lastUsedAt, ...user } = row;
  await noteSessionUse(db, tokenHash, lastUsedAt);
  return user;
}

/** Sets user.admin for an address on ADMIN_EMAILS (lower-cased), for this request only. */
export function grantAdminByEmail(user: UserRow, adminEmails: ReadonlySet<string>): UserRow {
  if (!user.admin && adminEmails.has(user.email.trim().toLowerCase())) user.admin = true;
  return user;
}

/**
 * The game's hot calls (an answer post, the current quest, the campaign board polled every second
 * by every client) opt in with the route config `recentSession: true`: their session check may
 * reuse a lookup made for the same token less than RECENT_SESSION_MS ago, by any request. Without
 * this, each costs one more database round trip than its own work (session lookups would be a
 * large share of the database's statements; on PGlite they queue on its one connection).
 * Every other route looks the session up each time. A revocation in this process (logout,
 * account deletion: server/auth/sessions.ts) forgets the lookups at once; one made by another
 * process reaches these routes within RECENT_SESSION_MS.
 *
 * Each lookup is reused for a random time between half of RECENT_SESSION_MS and all of it. With
 * a fixed time, clients that started together (a class logging in at once, a server restart, the
 * load bench's volunteers) looked their sessions up again together, every second, in a burst
 * that drifted apart only slowly.
 */
const RECENT_SESSION_MS = 1000;
const recentSessions = new Map<string, { user: UserRow; until: number }>();
/**
 * Counts forgetRecentSessions calls. A lookup that was under way when the sessions were forgotten
 * may have read a session that no longer exists: it is used for its own request but not kept.
 */
let forgetCount = 0;

/** Call once a revocation is committed: no lookup made before it is reused after it. */
export function forgetRecentSessions(): void {
  recentSessions.clear();
  forgetCount++;
}

function rememberSession(tokenHash: string, user: UserRow, at: number): void {
  // Bounded by the clients active in the last second: stale entries go whenever it grows large.
  if (recentSessions.size >= 10_000)
    for (const [key, entry] of recentSessions) if (entry.until <= at) recentSessions.delete(key);
  recentSessions.set(tokenHash, { user, until: at + RECENT_SESSION_MS * (0.5 + Math.random() / 2) });
}

/**
 * Registers request.user on the root instance (call before the route plugins). An address in
 * `adminEmails` (ADMIN_EMAILS) makes its user an administrator for this request, without a
 * write: taking it off the list takes the role away.
 */
export function registerSessionUser(
  app: FastifyInstance,
  db: Kysely<Database>,
  options: { adminEmails?: readonly string[] } = {},
): void {
  const adminEmails = new Set((options.adminEmails ?? []).map((email) => email.trim().toLowerCase()));
  app.decorateRequest('user', null);
  app.decorateRequest('sessionTokenHash', null);
  app.addHook('onRequest', async (request) => {
    // Static files and the client bundle need no database round trip.
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    const tokenHash = token ? hashToken(token) : null;
    const now = Date.now();
    if (tokenHash && request.routeOptions.config.recentSession === true) {
      const recent = recentSessions.get(tokenHash);
      if (recent && now < recent.until) {
        request.user = recent.user;
        request.sessionTokenHash = tokenHash;
        return;
      }
    }
    const forgetCountBefore = forgetCount;
    const user = await findSessionUser(db, token);
    if (user) grantAdminByEmail(user, adminEmails);
    request.user = user;
    request.sessionTokenHash = user && tokenHash;
    if (user && tokenHash && forgetCount === forgetCountBefore) rememberSession(tokenHash, user, now);
    else if (tokenHash) recentSessions.delete(tokenHash);
  });
}

/** The logged-in user, or 401 for a guest (application-spec §6: guests may only log in, sign up, reset). */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new HttpError(401, 'You must be logged in.');
  return request.user;
}

/** The administrator (current_user.admin), 401 for a guest, 403 for a volunteer. */
export function requireAdmin(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (!user.admin) throw new HttpError(403, 'Administrators only.');
  return user;
}
