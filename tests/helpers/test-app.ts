// The whole application over a fresh test database and its own VAR_DIR (so its outbox is the
// test's), for HTTP-level tests with app.inject; plus small helpers for accounts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { hashPassword } from '../../server/auth/passwords';
import { SESSION_COOKIE } from '../../server/auth/session-user';
import { loadConfig } from '../../server/config';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from './databases';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  varDirectory: string;
  outbox: string;
  /** app.inject from an address of its own (nextIp) unless `remoteAddress` is given. */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Another app (another "server process") on the same database, with other settings. */
  sibling(env?: Record<string, string>): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export async function startTestApp(
  kind: (typeof DATABASE_KINDS)[number],
  env: Record<string, string> = {},
): Promise<TestApp> {
  const database = await openTestDatabase(kind);
  const varDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-test-var-'));
  const siblings: FastifyInstance[] = [];
  const build = (extra: Record<string, string>) =>
    buildApp({
      config: loadConfig({ VAR_DIR: varDirectory, DIST_DIR: '/nonexistent-dist', PORT: '8080', ...env, ...extra }),
      db: database.db,
    });
  const app = await build({});
  return {
    app,
    database,
    varDirectory,
    outbox: path.join(varDirectory, 'outbox'),
    inject: (options) => app.inject({ remoteAddress: nextIp(), ...options }),
    async sibling(extra = {}) {
      const other = await build(extra);
      siblings.push(other);
      return other;
    },
    async close() {
      for (const other of siblings) await other.close();
      await app.close();
      await database.close();
      fs.rmSync(varDirectory, { recursive: true, force: true });
    },
  };
}

let ipCounter = 0;
/**
 * A client address no other request of this process used: rate limits count per IP, so tests
 * that are not about them each come from their own address.
 */
export function nextIp(): string {
  ipCounter += 1;
  return `10.${(process.pid >> 8) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

let counter = 0;
/** An address no other test uses. */
export function uniqueEmail(prefix = 'volunteer'): string {
  counter += 1;
  return `${prefix}${counter}-${process.pid}-${Date.now().toString(36)}@example.org`;
}

/** A user with a password, written straight into the database (login is what is tested). */
export async function insertUserWithPassword(
  testApp: TestApp,
  options: { email?: string; password?: string; nickname?: string; locale?: 'en' | 'ja'; passwordHash?: string } = {},
): Promise<{ id: number; email: string; password: string }> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct horse battery';
  const row = await testApp.database.db
    .insertInto('users')
    .values({
      email,
      nickname: options.nickname ?? '',
      locale: options.locale ?? 'en',
      password_hash: options.passwordHash ?? (await hashPassword(password)),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email, password };
}

/** The session cookie a response set, as `cookies` for the next inject. */
export function sessionCookieOf(response: LightMyRequestResponse): Record<string, string> {
  const cookie = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE);
  if (!cookie) throw new Error(`no ${SESSION_COOKIE} cookie in the response (${response.statusCode})`);
  return { [SESSION_COOKIE]: cookie.value };
}

export async function login(testApp: TestApp, email: string, password: string): Promise<Record<string, string>> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/session',
    payload: { email, password },
    remoteAddress: nextIp(),
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return sessionCookieOf(response);
}

/**
 * The accounts tests' calls on `testApp()`, read at each call (the app starts in a beforeAll):
 * inject, GET /api/session's body with `cookies`, and how many sessions a user has.
 */
export function accountCalls(testApp: () => TestApp) {
  const inject = (options: InjectOptions) => testApp().inject(options);
  const session = async (cookies: Record<string, string>) =>
    (await inject({ method: 'GET', url: '/api/session', cookies })).json();
  const sessionCount = async (userId: number) =>
    (await testApp().database.db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute())
      .length;
  return { inject, session, sessionCount };
}
