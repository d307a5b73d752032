// `galaxy-cruise export` and `galaxy-cruise science`, run as the real command on PGlite under
// VAR_DIR/db (the PostgreSQL path is the same code, tested in science.test.ts): the export sums
// the answers not yet summed and writes one row per target (or per answer, or per volunteer under
// a pseudonym); the rule command refuses the spec's courses and sets a course of the crowd's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addVotes, seedCrowd } from '../../bench/science-crowd';
import { openDatabase } from '../../server/db/database';
import { galaxyCruise } from '../helpers/command-line';
import { openTestDatabase } from '../helpers/databases';

describe('galaxy-cruise export and science', () => {
  let varDirectory: string;
  let env: NodeJS.ProcessEnv;

  const cli = (...args: string[]) => galaxyCruise(env, ...args);

  beforeAll(async () => {
    varDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-science-cli-'));
    const database = await openTestDatabase('pglite', path.join(varDirectory, 'db'));
    try {
      const crowd = await seedCrowd(database.db, { targets: 30, volunteers: 5 });
      const answered = new Map<number, Set<number>>();
      await addVotes(database.db, crowd, crowd.targets.slice(0, 10), answered);
      await addVotes(database.db, crowd, crowd.targets.slice(0, 10), answered);
    } finally {
      await database.close();
    }
    env = { ...process.env, VAR_DIR: varDirectory, DATABASE_URL: '', SESSION_SECRET: '' };
  });
  afterAll(() => {
    fs.rmSync(varDirectory, { recursive: true, force: true });
  });

  it('exports every target with the answers summed, to standard output or a file', async () => {
    const csv = await cli('export', '--course', 'crowd', '--format', 'csv');
    expect(csv.code).toBe(0);
    const [header, ...rows] = csv.stdout
      .trimEnd()
      .split('\r\n')
      .filter((line) => !line.startsWith('#'));
    expect(rows).toHaveLength(30);
    const volunteers = header!.split(',').indexOf('volunteers');
    expect(rows.filter((row) => row.split(',')[volunteers] === '2')).toHaveLength(10);
    const file = path.join(varDirectory, 'crowd.vot');
    const votable = await cli('export', '--course', 'crowd', '--format', 'votable', '-o', file, '--estimate');
    expect(votable.code).toBe(0);
    expect(votable.stderr).toMatch(/reliability of 5 volunteers from 20 answers/);
    expect(fs.readFileSync(file, 'utf8')).toContain('<FIELD name="ra" datatype="double" unit="deg"');
  });

  it('exports the raw answers and the volunteers under pseudonyms of the server secret', async () => {
    const column = async (table: string, name: string, secret = '') => {
      const saved = env;
      env = { ...env, SESSION_SECRET: secret };
      try {
        const result = await cli('export', '--course', 'crowd', '--format', 'csv', `--${table}`);
        expect(result.code).toBe(0);
        const [header, ...rows] = result.stdout
          .trimEnd()
          .split('\r\n')
          .filter((line) => !line.startsWith('#'));
        const index = header!.split(',').indexOf(name);
        return rows.map((row) => row.split(',')[index]!);
      } finally {
        env = saved;
      }
    };
    const answers = await column('answers', 'volunteer');
    expect(answers).toHaveLength(20);
    for (const pseudonym of answers) expect(pseudonym).toMatch(/^[0-9a-f]{16}$/);
    // Without SESSION_SECRET the secret is made once under VAR_DIR and kept.
    expect(fs.statSync(path.join(varDirectory, 'secret')).size).toBe(32);
    expect(await column('answers', 'volunteer')).toEqual(answers);
    expect(new Set(await column('volunteers', 'volunteer'))).toEqual(new Set(answers));
    const elsewhere = await column('answers', 'volunteer', 'another server');
    expect(elsewhere).toHaveLength(20);
    elsewhere.forEach((pseudonym, index) => expect(pseudonym).not.toBe(answers[index]));
  });

  it('refuses what it cannot do, naming it', async () => {
    expect(await cli('export', '--course', 'crowd')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('export needs --format csv|fits|votable'),
    });
    expect(await cli('export', '--course', 'crowd', '--format', 'csv', '--answers', '--volunteers')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('export takes --answers or --volunteers, not both'),
    });
    expect(await cli('export', '--course', 'nowhere', '--format', 'csv')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("no course 'nowhere' in the database"),
    });
    expect(await cli('science', 'rule', '--course', 'season2', '--max-volunteers', '3')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("'season2' is a course of the application spec"),
    });
    expect(await cli('science', 'rule', '--course', 'crowd', '--min-volunteers', '3')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('a rule needs --min-volunteers with --min-confidence, or --max-volunteers'),
    });
  });

  it('sets and clears a course retirement rule', async () => {
    const rule = await cli('science', 'rule', '--course', 'crowd', '--min-volunteers', '3', '--min-confidence', '0.9');
    expect(rule).toMatchObject({ code: 0, stdout: 'course crowd: rule set\n' });
    const read = async () => {
      const { db } = await openDatabase({ directory: path.join(varDirectory, 'db') });
      try {
        return await db
          .selectFrom('courses')
          .select(['retire_min_volunteers', 'retire_min_confidence', 'retire_max_volunteers'])
          .where('id', '=', 'crowd')
          .executeTakeFirstOrThrow();
      } finally {
        await db.destroy();
      }
    };
    expect(await read()).toEqual({ retire_min_volunteers: 3, retire_min_confidence: 0.9, retire_max_volunteers: null });
    expect(await cli('science', 'rule', '--course', 'crowd', '--off')).toMatchObject({ code: 0 });
    expect(await read()).toEqual({
      retire_min_volunteers: null,
      retire_min_confidence: null,
      retire_max_volunteers: null,
    });
  });
});
