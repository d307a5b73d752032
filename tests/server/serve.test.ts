// The real server process: `galaxy-cruise serve` on embedded PGlite (files under VAR_DIR/db)
// and, with DATABASE_URL, on the real PostgreSQL — the same migrations run at start on both.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../helpers/databases';
import { startServer, type RunningServer } from '../helpers/serve';

const running: RunningServer[] = [];
const directories: string[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop('SIGKILL');
  for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

function temporaryVar(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-var-'));
  directories.push(directory);
  return directory;
}

describe('galaxy-cruise serve', () => {
  it('runs on embedded PGlite under VAR_DIR/db and answers /api/session; SIGTERM stops it cleanly', async () => {
    const varDirectory = temporaryVar();
    const server = await startServer({ VAR_DIR: varDirectory });
    running.push(server);
    const response = await fetch(`${server.url}/api/session`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ current_user: null, recommended_course: null });
    expect(server.output()).toContain('"database":"pglite"');
    expect(fs.existsSync(path.join(varDirectory, 'db', 'PG_VERSION'))).toBe(true);
    // The request log is buffered (server/app.ts, bufferedStdoutLog), yet a quiet server's line
    // shows within its one-second flush, with the URL and the status.
    const logged = /"url":"\/api\/session"[^\n]*"statusCode":200[^\n]*"request completed"/;
    const deadline = Date.now() + 5000;
    while (!logged.test(server.output()) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.output()).toMatch(logged);
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('with DATABASE_URL runs the same migrations on a real PostgreSQL', async () => {
    const url = await createPostgresDatabase();
    const server = await startServer({ VAR_DIR: temporaryVar(), DATABASE_URL: url });
    running.push(server);
    expect(await (await fetch(`${server.url}/api/session`)).json()).toEqual({
      current_user: null,
      recommended_course: null,
    });
    expect(server.output()).toContain('"database":"postgres"');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('select name from kysely_migration order by name');
      expect(rows.map((row) => row.name)).toContain('0001_accounts');
      const tables = await client.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public'",
      );
      expect(tables.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(['users', 'sessions']));
    } finally {
      await client.end();
    }
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('answers 404 as JSON for an unknown API path', async () => {
    const server = await startServer({ VAR_DIR: temporaryVar() });
    running.push(server);
    const response = await fetch(`${server.url}/api/no-such-thing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'Not Found' });
  });
});
