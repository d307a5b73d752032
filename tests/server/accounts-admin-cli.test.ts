// `galaxy-cruise admin grant|revoke EMAIL` and `admin list`, run as the real command against
// the configured database: PGlite under VAR_DIR/db, or PostgreSQL through DATABASE_URL.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { DATABASE_KINDS, openTestDatabase } from '../helpers/databases';

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, '..', '..', 'bin', 'galaxy-cruise.mjs');

// Each run starts a process and opens the database (PGlite from disk: seconds on a busy machine).
describe.each(DATABASE_KINDS)('galaxy-cruise admin on %s', (kind) => {
  let varDirectory: string;
  let env: NodeJS.ProcessEnv;
  let url: string | undefined;

  async function admin(...args: string[]) {
    try {
      const { stdout, stderr } = await run(process.execPath, [bin, 'admin', ...args], { env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  /** Reads users.admin with the database closed again afterwards (PGlite allows one process). */
  async function isAdmin(email: string): Promise<boolean> {
    const { db } = await openDatabase({ databaseUrl: url, directory: path.join(varDirectory, 'db') });
    try {
      return (await db.selectFrom('users').select('admin').where('email', '=', email).executeTakeFirstOrThrow()).admin;
    } finally {
      await db.destroy();
    }
  }

  beforeAll(async () => {
    varDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-admin-cli-'));
    // A migrated database with two volunteers; for PGlite, on disk where the command looks.
    const database = await openTestDatabase(kind, path.join(varDirectory, 'db'));
    url = database.url;
    try {
      await database.db
        .insertInto('users')
        .values([
          { email: 'vega@example.org', nickname: 'Vega', locale: 'en', password_hash: null },
          { email: 'altair@example.org', nickname: 'Altair', locale: 'ja', password_hash: null },
        ])
        .execute();
    } finally {
      await database.close();
    }
    env = { ...process.env, VAR_DIR: varDirectory, DATABASE_URL: url ?? '', ADMIN_EMAILS: 'altair@example.org' };
  });
  afterAll(() => {
    fs.rmSync(varDirectory, { recursive: true, force: true });
  });

  it('grants the admin role (users.admin) by address, in any case', async () => {
    const result = await admin('grant', 'Vega@Example.org');
    expect(result).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^granted the admin role to vega@example.org/),
    });
    expect(await isAdmin('vega@example.org')).toBe(true);
  });

  it('lists administrators: granted ones and those of ADMIN_EMAILS', async () => {
    const result = await admin('list');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('vega@example.org\naltair@example.org (ADMIN_EMAILS)\n');
  });

  it('revokes the admin role', async () => {
    expect((await admin('revoke', 'vega@example.org')).code).toBe(0);
    expect(await isAdmin('vega@example.org')).toBe(false);
  });

  it('fails (exit 1) for an address without an account', async () => {
    const unknown = await admin('grant', 'nobody@example.org');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no account with the e-mail address nobody@example.org: it must sign up first');
  });

  it('prints its usage (exit 2) for bad arguments', async () => {
    const bad = await admin('promote', 'vega@example.org');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Usage: galaxy-cruise admin grant EMAIL | admin revoke EMAIL | admin list');
    expect((await admin('grant')).code).toBe(2);
    const flag = await admin('grant', '--force', 'vega@example.org');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--force' (it takes none)");
    const extra = await admin('list', 'vega@example.org');
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain("unexpected argument 'vega@example.org'");
  });
});
