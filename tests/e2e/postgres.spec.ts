// The 'postgres' project's servers really keep their data in PostgreSQL (playwright.config.ts):
// a volunteer signed up through the e2e server's mail link is found, with their nickname and
// questionnaire, in the database on the throw-away cluster; a configured server (the second
// server of the admin and gift specs) reports PostgreSQL as its database when it starts.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { startConfiguredServer } from '../helpers/configured-server';
import { E2E_POSTGRES_CLUSTER_FILE, e2eServer, type E2ePostgresCluster } from '../helpers/e2e-server';
import { freshEmail, readyVolunteer } from '../helpers/volunteers';

function cluster(): E2ePostgresCluster {
  return JSON.parse(fs.readFileSync(E2E_POSTGRES_CLUSTER_FILE, 'utf8')) as E2ePostgresCluster;
}

test('a volunteer signed up on the e2e server is a row of the PostgreSQL database', async ({ request }) => {
  expect(e2eServer().database).toBe('postgres');
  const email = freshEmail('postgres');
  const { nickname } = await readyVolunteer(request, { email, locale: 'ja' });
  const client = new pg.Client({ connectionString: cluster().databaseUrl });
  await client.connect();
  try {
    const users = await client.query(
      'select id, nickname, locale, password_hash is not null as has_password from users where email = $1',
      [email],
    );
    expect(users.rows).toEqual([expect.objectContaining({ nickname, locale: 'ja', has_password: true })]);
    const answers = await client.query('select country_code from private_informations where user_id = $1', [
      users.rows[0].id,
    ]);
    expect(answers.rows).toEqual([{ country_code: 392 }]);
  } finally {
    await client.end();
  }
});

test('a configured server of this project opens its database on PostgreSQL', async () => {
  test.setTimeout(300_000);
  const server = await startConfiguredServer('postgres-check');
  try {
    const ready = server
      .output()
      .split('\n')
      .filter((line) => line.includes('database ready'))
      .map((line) => JSON.parse(line) as { database: string });
    expect(ready).toEqual([expect.objectContaining({ database: 'postgres' })]);
  } finally {
    await server.stop();
  }
});
