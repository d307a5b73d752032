// Issue 32 item 3: an address that is not exactly one mailbox (a list, a display name, a comment,
// white space) passes application-spec §5's loose check, and a mailer reading it would send the
// sign-up link elsewhere. The server's strict gate (server/auth/email-address.ts) refuses it at
// sign-up, reset and login, and the mailer is given the address as an object it does not parse.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommand } from '../../cli/commands/admin';
import { UsageError } from '../../cli/command';
import { parseMailbox } from '../../server/auth/email-address';
import { createMailer } from '../../server/mail/mailer';
import { DATABASE_KINDS } from '../helpers/databases';
import { readOutbox } from '../helpers/outbox';
import { insertUserWithPassword, startTestApp, type TestApp } from '../helpers/test-app';

const NOT_ONE_MAILBOX = [
  'victim,attacker@probe.example',
  'Victim<attacker@probe.example>',
  'victim@probe.example,attacker@probe.example',
  'victim@probe.example (attacker@probe.example)',
  '"victim"@probe.example',
  'vic tim@probe.example',
  'victim@probe.example\u200b',
  'victim@[127.0.0.1]',
  '.victim@probe.example',
  'vic..tim@probe.example',
  'victim@-probe.example',
  'victim@probe..example',
  `${'a'.repeat(65)}@probe.example`,
  `victim@${'a'.repeat(64)}.example`,
  `victim@${'abcdefghij.'.repeat(24)}example`,
];

describe('parseMailbox', () => {
  it.each(NOT_ONE_MAILBOX)('refuses %j', (text) => {
    expect(parseMailbox(text)).toBeUndefined();
  });

  it.each([
    ['Volunteer@Example.org', 'volunteer@example.org'],
    ['  a.b+galaxy@mail.example.co.jp ', 'a.b+galaxy@mail.example.co.jp'],
    ["o'hara@localhost", "o'hara@localhost"],
    ['そら@例え.jp', 'そら@例え.jp'],
    [`${'a'.repeat(64)}@probe.example`, `${'a'.repeat(64)}@probe.example`],
  ])('takes %j as %j', (text, address) => {
    expect(parseMailbox(text)).toBe(address);
  });
});

describe('the mailer', () => {
  it('sends to the one address it is given, never to an address read out of it', async () => {
    const outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-mailer-'));
    const mailer = createMailer({
      smtpUrl: undefined,
      outboxDirectory: outbox,
      from: 'cruise@example.org',
      logger: pino({ level: 'silent' }),
    });
    try {
      await mailer.send({ to: 'victim,attacker@probe.example', subject: 'Hi', text: 'Hello', link: 'https://x/' });
      const [mail] = readOutbox(outbox);
      expect(mail.to).not.toBe('attacker@probe.example');
      expect(mail.to).toBe('<"victim,attacker"@probe.example>');
    } finally {
      await mailer.close();
      fs.rmSync(outbox, { recursive: true, force: true });
    }
  });
});

describe('galaxy-cruise admin', () => {
  it('refuses an argument that is not one address, as a usage error', async () => {
    await expect(adminCommand.run(['grant', 'admin,attacker@probe.example'])).rejects.toBeInstanceOf(UsageError);
  });
});

describe.each(DATABASE_KINDS)('addresses entering the account routes on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['victim,attacker@probe.example', 'Victim<attacker@probe.example>'])(
    'sign-up refuses %j with 422 Invalid Format and mails nothing',
    async (email) => {
      const response = await t.inject({ method: 'POST', url: '/api/signup/verify_email', payload: { email } });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().errors).toEqual({ email: ['Invalid Format'] });
      expect(readOutbox(t.outbox)).toEqual([]);
    },
  );

  it('password reset refuses a list with 422 Invalid Format', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/password_reset/verify_email',
      payload: { email: 'victim@probe.example,attacker@probe.example' },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors).toEqual({ email: ['Invalid Format'] });
  });

  it('login with an address that is not one mailbox is the usual wrong-credentials answer, even if such an account exists', async () => {
    const legacy = await insertUserWithPassword(t, { email: 'admin,attacker@probe.example' });
    const response = await t.inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: legacy.email, password: legacy.password },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().message).toBe('E-mail or password is incorrect.');
  });

  it('signs up a plain address given with capitals and spaces, mailing it lower-cased', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/signup/verify_email',
      payload: { email: '  Sora.Hoshino@Example.org ' },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(readOutbox(t.outbox).map((mail) => mail.to)).toEqual(['sora.hoshino@example.org']);
  });
});
