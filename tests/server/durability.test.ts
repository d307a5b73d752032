// Durability (issue 5): answers posted and acknowledged with a 200, the server killed with
// SIGKILL, restarted — every acknowledged answer is there, with the values acknowledged last.
// On PGlite (files under VAR_DIR/db; commits fsynced before they are acknowledged, see
// server/db/pglite-durable.ts) and on the real PostgreSQL (DATABASE_URL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { createPostgresDatabase } from '../helpers/databases';
import { startServer, varDirectoryWithSmallSky, type RunningServer } from '../helpers/serve';

const running: RunningServer[] = [];
const directories: string[] = [];
afterEach(async () => {
  // A server killed by the test has exited already (signalCode set, exitCode still null).
  for (const server of running.splice(0))
    if (server.child.exitCode === null && server.child.signalCode === null) await server.stop('SIGKILL');
  for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

/** A VAR_DIR whose sky/ is the small sky (removed after the test), so that the server seeds the game. */
async function varWithSky(): Promise<string> {
  const directory = await varDirectoryWithSmallSky();
  directories.push(directory);
  return directory;
}

interface Acknowledged {
  galaxy_type: string;
  ring: boolean;
}

async function api(server: RunningServer, user: TestUser, method: string, url: string, body?: object) {
  const cookie = Object.entries(user.cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  return fetch(`${server.url}${url}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/**
 * Sails season2 answering every question: some answers posted one by one, some all at once,
 * some posted twice with a change; then a last burst that the kill interrupts. Returns the
 * answers acknowledged with a 200, by object, with the values of the last acknowledged post.
 */
async function answerUntilKilled(server: RunningServer, user: TestUser): Promise<Map<number, Acknowledged>> {
  const acknowledged = new Map<number, Acknowledged>();
  const post = async (questId: number, objectId: number, value: Acknowledged) => {
    const response = await api(server, user, 'POST', `/api/quests/${questId}/answers`, {
      object_id: objectId,
      ...value,
    });
    if (response.status === 200) acknowledged.set(objectId, value);
    return response.status;
  };
  for (let round = 0; round < 3; round++) {
    const quest = await (await api(server, user, 'GET', '/api/courses/season2/quests/current')).json();
    const questions = quest.questions as { object_id: number }[];
    // One by one, then the rest concurrently; every one waits for its 200.
    expect(await post(quest.id, questions[0].object_id, { galaxy_type: 'spiral', ring: false })).toBe(200);
    expect(await post(quest.id, questions[0].object_id, { galaxy_type: 'elliptical', ring: true })).toBe(200);
    const statuses = await Promise.all(
      questions
        .slice(1)
        .map((question) => post(quest.id, question.object_id, { galaxy_type: 'spiral', ring: round % 2 === 0 })),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
  }
  // The last quest: a burst in flight when the process is killed. Whatever was acknowledged
  // before the kill must survive; the rest may or may not.
  const quest = await (await api(server, user, 'GET', '/api/courses/season2/quests/current')).json();
  const burst = (quest.questions as { object_id: number }[]).map((question) =>
    post(quest.id, question.object_id, { galaxy_type: 'elliptical', ring: false }).catch(() => 0),
  );
  await Promise.race(burst);
  await server.stop('SIGKILL');
  await Promise.all(burst);
  return acknowledged;
}

async function storedAnswers(handle: DatabaseHandle, userId: number) {
  const rows = await handle.db
    .selectFrom('answers')
    .select(['object_id', 'galaxy_type', 'ring'])
    .where('user_id', '=', userId)
    .execute();
  return new Map(rows.map((row) => [row.object_id, { galaxy_type: row.galaxy_type, ring: row.ring }]));
}

describe.each([
  ['PGlite on disk', 'pglite'],
  ['PostgreSQL', 'postgres'],
] as const)('acknowledged answers survive SIGKILL and restart on %s', (_name, kind) => {
  it(
    'keeps every answer acknowledged with a 200, with its last acknowledged values',
    { timeout: 420_000 },
    async () => {
      const started = Date.now();
      const lap = (what: string) => console.log(`${kind}: ${what} at ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const varDirectory = await varWithSky();
      const env: Record<string, string> = { VAR_DIR: varDirectory, RATE_LIMITS: 'off' };
      if (kind === 'postgres') env.DATABASE_URL = await createPostgresDatabase();
      const open = () => openDatabase({ databaseUrl: env.DATABASE_URL, directory: path.join(varDirectory, 'db') });

      // The volunteer and a session, written before the server starts.
      let handle = await open();
      await migrateToLatest(handle.db);
      const user = await createTestUser(handle.db);
      await handle.db.destroy();

      lap('database prepared');
      const first = await startServer(env);
      lap('server started');
      running.push(first);
      const acknowledged = await answerUntilKilled(first, user);
      expect(first.child.signalCode).toBe('SIGKILL');
      expect(acknowledged.size).toBeGreaterThanOrEqual(12);

      // Restarted on the same files: recovery, then the game goes on where it stopped.
      lap(`killed after ${acknowledged.size} acknowledged answers`);
      const second = await startServer(env);
      lap('restarted');
      running.push(second);
      const quest = await (await api(second, user, 'GET', '/api/courses/season2/quests/current')).json();
      for (const answer of quest.answers as { object_id: number; galaxy_type: string; ring: boolean }[]) {
        const acked = acknowledged.get(answer.object_id);
        if (acked) expect({ galaxy_type: answer.galaxy_type, ring: answer.ring }).toEqual(acked);
      }
      // Three quests were finished before the burst; the burst may have finished a fourth.
      const records = await (await api(second, user, 'GET', '/api/my_record/season2')).json();
      const finished = records.quests.filter((record: { finished_at: string | null }) => record.finished_at);
      expect(finished.length).toBeGreaterThanOrEqual(3);
      expect(await second.stop('SIGTERM')).toBe(0);

      handle = await open();
      try {
        const stored = await storedAnswers(handle, user.id);
        for (const [objectId, values] of acknowledged) expect(stored.get(objectId), String(objectId)).toEqual(values);
        // Nothing duplicated: one row per object.
        expect(stored.size).toBeLessThanOrEqual(acknowledged.size + 4);
      } finally {
        await handle.db.destroy();
      }
    },
  );
});

describe('PGlite on disk acknowledges a commit only once its WAL is fsynced', () => {
  it('has synced every WAL write a commit asked for when the commit returns, alone or under concurrency', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-fsync-'));
    directories.push(directory);
    const handle = await openDatabase({ directory: path.join(directory, 'db') });
    const durability = handle.durability!;
    try {
      await migrateToLatest(handle.db);
      const before = durability.walSyncs;
      for (let i = 0; i < 20; i++) {
        await createTestUser(handle.db);
        expect(durability.durableRequests).toBe(durability.requests);
      }
      expect(durability.walSyncs).toBeGreaterThan(before);
      // Concurrent transactions share fsyncs, but none returns before its own commit is synced.
      const syncsBefore = durability.walSyncs;
      await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          let requestsBeforeCommit = 0;
          await handle.db.transaction().execute(async (trx) => {
            await trx
              .insertInto('users')
              .values({ email: `fsync${i}@example.org`, nickname: `fsync${i}`, locale: 'en', password_hash: null })
              .execute();
            requestsBeforeCommit = durability.requests;
          });
          expect(durability.durableRequests).toBeGreaterThan(requestsBeforeCommit);
        }),
      );
      expect(durability.walSyncs - syncsBefore).toBeLessThan(100);
    } finally {
      await handle.db.destroy();
    }
  });
});
