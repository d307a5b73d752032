// One-time links mailed for sign-up (24 h) and password reset (1 h): 256 random bits in the
// link, only their SHA-256 in the database, looked at without change when the link is opened and
// consumed at most once, by a conditional update, when its page's button is pressed.
import type { Kysely, Selectable } from 'kysely';
import type { Database, EmailTokensTable } from '../db/schema';
import { hashToken } from './session-user';
import { randomToken } from './sessions';

export type EmailTokenPurpose = EmailTokensTable['purpose'];
export type EmailTokenRow = Selectable<EmailTokensTable>;

export const LINK_TTL_MS: Record<EmailTokenPurpose, number> = {
  signup: 24 * 3600_000,
  password_reset: 3600_000,
};

export async function issueEmailToken(
  db: Kysely<Database>,
  values: { purpose: EmailTokenPurpose; email: string; userId: number | null; locale: string },
): Promise<string> {
  const token = randomToken();
  await db.transaction().execute(async (trx) => {
    // Links a day past their expiry have nothing left to say (a used or expired link still
    // gets its own page until then).
    await trx
      .deleteFrom('email_tokens')
      .where('expires_at', '<', new Date(Date.now() - 24 * 3600_000))
      .execute();
    // A new reset link replaces the older ones: only the latest mail works.
    if (values.purpose === 'password_reset')
      await trx
        .deleteFrom('email_tokens')
        .where('purpose', '=', 'password_reset')
        .where('email', '=', values.email)
        .where('used_at', 'is', null)
        .execute();
    await trx
      .insertInto('email_tokens')
      .values({
        token_hash: hashToken(token),
        purpose: values.purpose,
        email: values.email,
        user_id: values.userId,
        locale: values.locale,
        expires_at: new Date(Date.now() + LINK_TTL_MS[values.purpose]),
      })
      .execute();
  });
  return token;
}

export type LinkFailure = 'unknown' | 'used' | 'expired';

export type ConsumedToken =
  { ok: true; row: EmailTokenRow } | { ok: false; reason: LinkFailure; locale: string | undefined };

/**
 * The link as it stands, changing nothing: opening a mail link (a volunteer, or a mail scanner
 * or a link preview that opens every link) only asks what it would do.
 */
export async function peekEmailToken(
  db: Kysely<Database>,
  purpose: EmailTokenPurpose,
  token: string,
): Promise<ConsumedToken> {
  const row = await db
    .selectFrom('email_tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  return row ? usable(row) : { ok: false, reason: 'unknown', locale: undefined };
}

function usable(row: EmailTokenRow): ConsumedToken {
  if (row.used_at) return { ok: false, reason: 'used', locale: row.locale };
  if (row.expires_at.getTime() <= Date.now()) return { ok: false, reason: 'expired', locale: row.locale };
  return { ok: true, row };
}

/**
 * Marks the link used and returns it, or says why it cannot be used. Run it inside the
 * transaction that acts on the link, so that a failure later leaves the link unused.
 */
export async function consumeEmailToken(
  db: Kysely<Database>,
  purpose: EmailTokenPurpose,
  token: string,
): Promise<ConsumedToken> {
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: new Date() })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returningAll()
    .executeTakeFirst();
  if (row) return { ok: true, row };
  // Not consumed: the row as it stands says why. Only a consumed row is ever ok here.
  const now = await peekEmailToken(db, purpose, token);
  return now.ok ? { ok: false, reason: 'used', locale: now.row.locale } : now;
}
