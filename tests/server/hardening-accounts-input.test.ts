// Issue 32 item 7: administrator input that once reached the database or Date and failed there
// with a 500. A lone UTF-16 surrogate in any string of a body, and a date-time that is no real
// instant (a leap second, year 0000), are the client's error: 400 with a message naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';

const LONE = '\ud800';

describe.each(DATABASE_KINDS)('request strings and date-times on %s', (kind) => {
  let t: TestApp;
  let captain: TestUser;
  let volunteer: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    captain = await createTestUser(t.database.db, { admin: true });
    volunteer = await createTestUser(t.database.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const postNotification = (input: Record<string, unknown>) =>
    t.inject({
      method: 'POST',
      url: '/api/notifications',
      cookies: captain.cookies,
      payload: { type: 'captain_message', title: { en: 'Ahoy' }, message: { en: 'Hello crew' }, ...input },
    });

  async function notificationCount(): Promise<number> {
    const row = await t.database.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  it('refuses a lone surrogate in a notification title or message with 400 naming the field', async () => {
    const before = await notificationCount();
    const title = await postNotification({ title: { en: `Ahoy ${LONE}` } });
    expect(title.statusCode, title.body).toBe(400);
    expect(title.json().message).toMatch(/title\/en.*unpaired UTF-16 surrogate/);
    const message = await postNotification({ message: { ja: `${LONE}こんにちは` } });
    expect(message.statusCode, message.body).toBe(400);
    expect(message.json().message).toMatch(/message\/ja/);
    expect(await notificationCount()).toBe(before);
  });

  it('keeps paired surrogates (emoji) in a notification', async () => {
    const response = await postNotification({ title: { en: 'Ahoy 🚀' } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().title.en).toBe('Ahoy 🚀');
  });

  it('refuses a lone surrogate in any body, a volunteer’s nickname included', async () => {
    const response = await t.inject({
      method: 'PUT',
      url: '/api/current_user',
      cookies: volunteer.cookies,
      payload: { nickname: `Vega${LONE}` },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(/nickname/);
  });

  it.each([
    ['a leap second', '2016-12-31T23:59:60Z'],
    ['year 0000', '0000-01-01T00:00:00Z'],
    ['year 1969', '1969-12-31T23:59:59Z'],
    ['an impossible day', '2021-02-30T00:00:00Z'],
  ])('refuses valid_after at %s with 400 saying what a date-time must be', async (_, value) => {
    const before = await notificationCount();
    const response = await postNotification({ valid_after: value });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(/valid_after must be a date-time/);
    expect(await notificationCount()).toBe(before);
  });

  it('takes a date-time with an offset and stores its instant', async () => {
    const response = await postNotification({ valid_before: '2100-01-01T09:00:00+09:00' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().valid_before).toBe('2100-01-01T00:00:00.000Z');
  });
});
