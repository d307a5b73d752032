// The game fixture of the server tests: a fresh database seeded from the small sky
// (skydata/small-sky.ts, shared with the load bench) and the app over it.
import type { FastifyInstance } from 'fastify';
import type { Insertable } from 'kysely';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { AnswersTable } from '../../server/db/schema';
import { seedCatalogue } from '../../server/db/seed';
import type { Catalogue } from '../../shared/catalogue';
import { smallSky } from '../../skydata/small-sky';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from './databases';

export { SMALL_SKY_DIRECTORY, smallSky, type SmallSky } from '../../skydata/small-sky';

/** A fresh, migrated database of `kind` seeded from `catalogue`, and the app over it. */
export async function openGame(kind: (typeof DATABASE_KINDS)[number], catalogue?: Catalogue): Promise<GameFixture> {
  const sky = await smallSky();
  const database = await openTestDatabase(kind);
  await seedCatalogue(database.db, catalogue ?? sky.catalogue);
  const app = await buildApp({
    config: loadConfig({ VAR_DIR: '/nonexistent-var', DIST_DIR: '/nonexistent-dist', RATE_LIMITS: 'off' }),
    db: database.db,
  });
  return {
    database,
    db: database.db,
    app,
    catalogue: catalogue ?? sky.catalogue,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export interface GameFixture {
  database: TestDatabase;
  db: TestDatabase['db'];
  app: FastifyInstance;
  catalogue: Catalogue;
  close(): Promise<void>;
}

/** A deep copy to derive test catalogues from (a changed digest makes the server re-seed). */
export function copyCatalogue(catalogue: Catalogue, digest = `${catalogue.digest}-variant`): Catalogue {
  return { ...(structuredClone(catalogue) as Catalogue), digest };
}

/** The types of a user's personal notifications, oldest first: what a quest finish wrote. */
export async function notificationTypes(db: TestDatabase['db'], userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('notifications')
    .select('type')
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.type);
}

/**
 * An answers row for a test to write directly, as a writer other than the answer batch leaves one
 * (a restore, the load bench's history, a batch whose quest finish never ran): no quest, spiral,
 * no interaction and no features unless `values` say otherwise.
 */
export function answerRow(
  values: Pick<Insertable<AnswersTable>, 'user_id' | 'object_id' | 'course_id'> & Partial<Insertable<AnswersTable>>,
): Insertable<AnswersTable> {
  return {
    quest_id: null,
    galaxy_type: 'spiral',
    interaction: 'no',
    ring: false,
    fan: false,
    tail: false,
    distorted: false,
    ...values,
  };
}
