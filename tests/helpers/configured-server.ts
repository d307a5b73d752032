// A second real server for the specs that need configuration the shared e2e server does not
// have: an administrator by ADMIN_EMAILS and the gift campaign's window opened around today with
// a small PRESENT_MIN_GALAXIES. Its own VAR_DIR (fresh database, small sky kept between runs) and
// a free loopback port; PUBLIC_URL is left unset, so mail links name localhost and the helpers
// below follow only their path on this server. Its database is of the running project's kind:
// PGlite under its VAR_DIR, or a fresh database on the 'postgres' project's PostgreSQL cluster.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { E2E_PORT, E2E_POSTGRES_CLUSTER_FILE, e2eServer, type E2ePostgresCluster } from './e2e-server';
import { mailLinkParts, waitForMail } from './outbox';
import { startServer, type RunningServer } from './serve';

export const ADMIN_EMAIL = 'captain@example.org';
export const PRESENT_MIN_GALAXIES = 2;

export interface ConfiguredServer extends RunningServer {
  varDir: string;
}

/**
 * DATABASE_URL of a fresh database `name` on the e2e PostgreSQL cluster (one run's cluster, so a
 * database of that name can only be left from an earlier start in this run).
 */
async function freshPostgresDatabase(name: string): Promise<string> {
  const cluster = JSON.parse(fs.readFileSync(E2E_POSTGRES_CLUSTER_FILE, 'utf8')) as E2ePostgresCluster;
  const database = `e2e_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  const url = new URL(cluster.adminUrl);
  url.pathname = `/${database}`;
  return url.href;
}

/**
 * `beforeServe` runs once the sky is built and before the server starts, with the server's
 * environment (VAR_DIR, DATABASE_URL): a spec imports a research group's course there, since with
 * PGlite only one process at a time may hold the database.
 */
export async function startConfiguredServer(
  name: string,
  { beforeServe }: { beforeServe?: (env: Record<string, string>) => void } = {},
): Promise<ConfiguredServer> {
  // The port in the name keeps two runs side by side (each with its own E2E_PORT) apart.
  const varDir = path.join(os.tmpdir(), `galaxy-cruise-e2e-${E2E_PORT}-${name}`);
  const { database } = e2eServer();
  fs.rmSync(path.join(varDir, 'db'), { recursive: true, force: true });
  fs.rmSync(path.join(varDir, 'outbox'), { recursive: true, force: true });
  // `serve` builds no data: the small sky (and so the game's catalogue) first, kept between runs.
  execFileSync(
    process.execPath,
    [path.join(process.cwd(), 'bin', 'galaxy-cruise.mjs'), 'data', '--small', '--if-stale'],
    {
      env: { ...process.env, VAR_DIR: varDir },
      stdio: 'ignore',
    },
  );
  const day = 24 * 3600_000;
  const databaseEnv = {
    VAR_DIR: varDir,
    DATABASE_URL: database === 'postgres' ? await freshPostgresDatabase(name) : '',
  };
  beforeServe?.(databaseEnv);
  const server = await startServer(
    {
      ...databaseEnv,
      GALAXY_CRUISE_SKY: 'small',
      ADMIN_EMAILS: ADMIN_EMAIL,
      PRESENT_OPENS_AT: new Date(Date.now() - day).toISOString(),
      PRESENT_DEADLINE: new Date(Date.now() + 7 * day).toISOString(),
      PRESENT_MIN_GALAXIES: String(PRESENT_MIN_GALAXIES),
    },
    240_000,
  );
  return Object.assign(server, { varDir });
}

/**
 * A volunteer who has passed the gate on `server`, signed up through the mail link and set up
 * over HTTP in `context` (which then holds the session).
 */
export async function readyVolunteerOn(
  server: ConfiguredServer,
  context: APIRequestContext,
  {
    email,
    locale = 'en',
    password = 'correct horse battery',
  }: { email: string; locale?: 'en' | 'ja'; password?: string },
) {
  const url = (route: string) => `${server.url}${route}`;
  expect((await context.post(url('/api/signup/verify_email'), { data: { email, locale } })).status()).toBe(204);
  const mail = await waitForMail(path.join(server.varDir, 'outbox'), email);
  const { token } = mailLinkParts(mail.link!);
  expect((await context.post(url('/api/signup/confirm'), { data: { token } })).ok()).toBe(true);
  expect((await context.put(url('/api/signup/password'), { data: { password } })).ok()).toBe(true);
  const nickname = `${email
    .split('@')[0]
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-20)}`;
  expect((await context.put(url('/api/current_user'), { data: { nickname, locale } })).ok()).toBe(true);
  const answers = {
    birth_year: 1990,
    country_code: 392,
    gender: 'other',
    reasons_for_participation: ['science'],
    relation_to_astronomy: 2,
    time_spent_in_astronomy: 1,
    way_to_know_this_site: 'search',
  };
  expect((await context.post(url('/api/current_user/private_information'), { data: answers })).ok()).toBe(true);
  return { email, password, nickname };
}
