// Sessions end when unused (OWASP ASVS 4.0.3 §3.3.2), not only 30 days after they began: one
// unused for SESSION_IDLE_MS is no longer live. Its last use is written cheaply, at most once per
// LAST_USE_RESOLUTION_MS per session (the lookup that finds it older writes it), never on every
// request: the game's hot routes poll every second.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** A session unused this long has ended: a week. */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/** How stale sessions.last_used_at may grow before a lookup writes it again. */
export const LAST_USE_RESOLUTION_MS = 3600_000;

/** The oldest last use of a live session, now. */
export function idleCutoff(now = Date.now()): Date {
  return new Date(now - SESSION_IDLE_MS);
}

/** Writes the session's last use when the stored one is over LAST_USE_RESOLUTION_MS old. */
export async function noteSessionUse(
  db: Kysely<Database>,
  tokenHash: string,
  lastUsedAt: Date,
  now = Date.now(),
): Promise<void> {
  if (now - lastUsedAt.getTime() < LAST_USE_RESOLUTION_MS) return;
  await db
    .updateTable('sessions')
    .set({ last_used_at: new Date(now) })
    .where('token_hash', '=', tokenHash)
    .execute();
}
