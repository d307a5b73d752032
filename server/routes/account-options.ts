// What the account route plugins share: accounts.ts registers them all with one mailer.
import type { Kysely } from 'kysely';
import type { ServerConfig } from '../config';
import type { Database } from '../db/schema';
import type { Mailer } from '../mail/mailer';

export interface AccountRouteOptions {
  db: Kysely<Database>;
  config: ServerConfig;
  mailer: Mailer;
}
