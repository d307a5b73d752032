// The calls a volunteer makes on a course of any size (issue 41; the season bench's rule: no
// call's cost grows with the course): two servers of the same build side by side, one on the sky
// alone and one on the sky with a course imported from a sky-wide list (./import.ts), the second
// being the import bench's own database after its first import. Each call is timed on both,
// alternating so that both meet the same load from the rest of the machine: GET /api/server_info
// and GET /api/levels on each, and the levels, level detail and current quest of season2 on the
// first against the same calls of the imported course on the second.
import fs from 'node:fs';
import path from 'node:path';
import type { CurrentQuestResponse, LevelSummary, ServerInfoResponse } from '../shared/api';
import { hashPassword } from '../server/auth/passwords';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { smallSky } from '../skydata/small-sky';
import { median } from './harness';
import { Client } from './load-client';
import { startLoadServer, type LoadServer } from './load-server';

export interface CourseCallRow {
  suite: 'import';
  run: 'calls';
  database: string;
  call: string;
  /** The imported course's levels and areas (GET /api/server_info on the second server). */
  levels: number;
  areas: number;
  season_median_ms: number;
  course_median_ms: number;
  ratio: number;
}

export interface CourseCallsOptions {
  database: string;
  /** The database URL of the imported course's server; empty for PGlite under its VAR_DIR. */
  courseDatabaseUrl: string;
  /** The VAR_DIR the course was imported into. */
  courseVarDirectory: string;
  /** The imported course's id. */
  courseId: string;
  /** A VAR_DIR (and database URL) of its own for the sky alone. */
  skyVarDirectory: string;
  skyDatabaseUrl: string;
  requests: number;
  log(line: string): void;
}

const EMAIL = 'course-calls@example.org';
const PASSWORD = 'course-calls-bench-password';

interface Side {
  server: LoadServer;
  client: Client;
  cookie: string;
}

/** The small sky under `varDirectory`, the database migrated and the timed volunteer in it. */
async function prepareDatabase(varDirectory: string, databaseUrl: string, skyDirectory: string): Promise<void> {
  if (!fs.existsSync(path.join(varDirectory, 'sky'))) fs.symlinkSync(skyDirectory, path.join(varDirectory, 'sky'));
  const { db } = await openDatabase({
    databaseUrl: databaseUrl || undefined,
    directory: path.join(varDirectory, 'db'),
  });
  try {
    await migrateToLatest(db);
    await db
      .insertInto('users')
      .values({ email: EMAIL, nickname: 'timed', locale: 'en', password_hash: await hashPassword(PASSWORD) })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .execute();
  } finally {
    await db.destroy();
  }
}

async function startSide(database: string, varDirectory: string, databaseUrl: string): Promise<Side> {
  const server = await startLoadServer(
    database === 'postgres' ? 'postgres' : 'pglite',
    { VAR_DIR: varDirectory, DATABASE_URL: databaseUrl, RATE_LIMITS: 'off' },
    path.join(varDirectory, 'server.log'),
  );
  const client = new Client(server.port, 1);
  const reply = await client.request('POST', '/api/session', { body: { email: EMAIL, password: PASSWORD } });
  if (reply.status !== 200) {
    client.close();
    await server.stop();
    throw new Error(`login failed: ${reply.status} ${reply.body}`);
  }
  const cookie = ([] as string[])
    .concat(reply.headers['set-cookie'] ?? [])
    .map((part) => part.split(';')[0])
    .join('; ');
  return { server, client, cookie };
}

async function get<T>(side: Side, url: string): Promise<{ ms: number; body: T }> {
  const started = performance.now();
  const reply = await side.client.request('GET', url, { cookie: side.cookie });
  const ms = performance.now() - started;
  if (reply.status !== 200) throw new Error(`GET ${url}: ${reply.status} ${reply.body}`);
  return { ms, body: JSON.parse(reply.body) as T };
}

/** `requests` calls on each side, alternating, after one untimed call each; the two medians. */
async function timePair(sky: Side, course: Side, skyUrl: string, courseUrl: string, requests: number) {
  await get(sky, skyUrl);
  await get(course, courseUrl);
  const skyMs: number[] = [];
  const courseMs: number[] = [];
  for (let index = 0; index < requests; index++) {
    skyMs.push((await get(sky, skyUrl)).ms);
    courseMs.push((await get(course, courseUrl)).ms);
  }
  return { season: median(skyMs), course: median(courseMs) };
}

/** The active level's id of a course's GET /api/levels (its first level when none is active). */
async function activeLevelId(side: Side, courseId: string): Promise<number> {
  const { body } = await get<LevelSummary[]>(side, `/api/levels?course_id=${courseId}`);
  const level = body.find((candidate) => candidate.status === 'active') ?? body[0];
  if (!level) throw new Error(`course ${courseId} has no level`);
  return level.id;
}

export async function timeCourseCalls(options: CourseCallsOptions): Promise<CourseCallRow[]> {
  const skyDirectory = path.join((await smallSky()).varDirectory, 'sky');
  await prepareDatabase(options.skyVarDirectory, options.skyDatabaseUrl, skyDirectory);
  await prepareDatabase(options.courseVarDirectory, options.courseDatabaseUrl, skyDirectory);
  const sides: Side[] = [];
  try {
    const sky = await startSide(options.database, options.skyVarDirectory, options.skyDatabaseUrl);
    sides.push(sky);
    const course = await startSide(options.database, options.courseVarDirectory, options.courseDatabaseUrl);
    sides.push(course);
    const info = (await get<ServerInfoResponse>(course, '/api/server_info')).body.number_of_areas[options.courseId];
    if (!info) throw new Error(`course ${options.courseId} is not in GET /api/server_info`);
    const levels = Object.keys(info).length;
    const areas = Object.values(info).reduce((sum, count) => sum + count, 0);
    options.log(`import ${options.database}: course ${options.courseId} of ${levels} levels and ${areas} areas`);
    const quest = (id: string) => `/api/courses/${id}/quests/current`;
    // The quest first: it opens the volunteer's first area, as the game's first screen does.
    await get<CurrentQuestResponse>(sky, quest('season2'));
    await get<CurrentQuestResponse>(course, quest(options.courseId));
    const calls: [string, string, string][] = [
      ['GET /api/server_info', '/api/server_info', '/api/server_info'],
      ['GET /api/levels', '/api/levels', '/api/levels'],
      ['GET /api/levels?course_id=', '/api/levels?course_id=season2', `/api/levels?course_id=${options.courseId}`],
      [
        'GET /api/levels/{level_id} (active)',
        `/api/levels/${await activeLevelId(sky, 'season2')}`,
        `/api/levels/${await activeLevelId(course, options.courseId)}`,
      ],
      ['GET current quest', quest('season2'), quest(options.courseId)],
    ];
    const rows: CourseCallRow[] = [];
    for (const [call, skyUrl, courseUrl] of calls) {
      const { season, course: courseMedian } = await timePair(sky, course, skyUrl, courseUrl, options.requests);
      rows.push({
        suite: 'import',
        run: 'calls',
        database: options.database,
        call,
        levels,
        areas,
        season_median_ms: season,
        course_median_ms: courseMedian,
        ratio: courseMedian / season,
      });
      options.log(
        `import ${options.database}: ${call} ${season.toFixed(2)} ms (season2, sky alone) → ` +
          `${courseMedian.toFixed(2)} ms (imported course)`,
      );
    }
    return rows;
  } finally {
    for (const side of sides) {
      side.client.close();
      await side.server.stop();
    }
  }
}
