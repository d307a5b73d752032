// Sign-up and password-reset mail (application-spec §2, §4, §7, §8): one-time links from the
// outbox (or a real SMTP exchange), single use, expiry, the locale of the mail, 409 for a
// registered address and the same answer for any address on reset.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, hashToken } from '../../server/auth/session-user';
import { createMailer } from '../../server/mail/mailer';
import { createTestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { followMailLink, openMailLink } from '../helpers/mail-links';
import { mailLinkParts, parseMail, readOutbox, waitForMail } from '../helpers/outbox';
import {
  insertUserWithPassword,
  login,
  sessionCookieOf,
  startTestApp,
  uniqueEmail,
  type TestApp,
} from '../helpers/test-app';

const PUBLIC_URL = 'https://galaxy.example.org';

function tokenOf(link: string): string {
  return mailLinkParts(link).token;
}

describe.each(DATABASE_KINDS)('mail on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { PUBLIC_URL });
  });
  afterAll(async () => {
    await t?.close();
  });

  const session = async (cookies: Record<string, string>) =>
    (await t.inject({ method: 'GET', url: '/api/session', cookies })).json();
  const signUp = (email: string, locale: 'en' | 'ja' = 'en') =>
    t.inject({ method: 'POST', url: '/api/signup/verify_email', payload: { email, locale } });
  const requestReset = (email: string) =>
    t.inject({ method: 'POST', url: '/api/password_reset/verify_email', payload: { email } });

  describe('POST /api/signup/verify_email and the sign-up link', () => {
    it("mails a link to the app's page, whose button creates the account and logs it in", async () => {
      const email = uniqueEmail('signup');
      const response = await signUp(email);
      expect(response.statusCode).toBe(204);
      const mail = await waitForMail(t.outbox, email);
      expect(mail.subject).toBe('Galaxy Cruise: confirm your e-mail address');
      expect(mail.text).toContain('expires in 24 hours');
      expect(mail.link!.startsWith(`${PUBLIC_URL}/#/signup/confirm?token=`)).toBe(true);

      const followed = await followMailLink(t, mail.link!);
      expect(followed.statusCode).toBe(200);
      const cookie = followed.cookies.find((candidate) => candidate.name === SESSION_COOKIE)!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      // The access gate then asks for a password, a nickname and the questionnaire.
      const user = {
        email,
        nickname: '',
        locale: 'en',
        password_is_set: false,
        private_information_present: false,
        admin: false,
      };
      expect(followed.json().current_user).toMatchObject(user);
      expect((await session(sessionCookieOf(followed))).current_user).toMatchObject(user);
    });

    it('writes the mail in the locale of the request (ja) and gives the account that locale', async () => {
      const email = uniqueEmail('subaru');
      expect((await signUp(email, 'ja')).statusCode).toBe(204);
      const mail = await waitForMail(t.outbox, email);
      expect(mail.subject).toBe('Galaxy Cruise: メールアドレスの確認');
      expect(mail.text).toContain('24 時間で無効になります');
      expect((await openMailLink(t, mail.link!)).link).toEqual({ state: 'ready', email, locale: 'ja' });
      const followed = await followMailLink(t, mail.link!);
      expect((await session(sessionCookieOf(followed))).current_user.locale).toBe('ja');
    });

    it('keeps only the SHA-256 of the link token (256 random bits), valid for 24 hours', async () => {
      const email = uniqueEmail('hashed');
      await signUp(email);
      const token = tokenOf((await waitForMail(t.outbox, email)).link!);
      expect(token).toMatch(/^[\w-]{43}$/);
      const row = await t.database.db
        .selectFrom('email_tokens')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(row.token_hash).toBe(hashToken(token));
      expect(row.purpose).toBe('signup');
      expect(row.expires_at.getTime() - row.created_at.getTime()).toBeCloseTo(24 * 3600_000, -4);
    });

    it('works once: the second use says the link was used (409 with its state), not a 500', async () => {
      const email = uniqueEmail('once');
      await signUp(email);
      const link = (await waitForMail(t.outbox, email)).link!;
      expect((await followMailLink(t, link)).statusCode).toBe(200);
      expect((await openMailLink(t, link)).link).toEqual({ state: 'used', email: null, locale: 'en' });
      const again = await followMailLink(t, link);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: 'This link has already been used: each link works only once.',
        state: 'used',
        locale: 'en',
      });
      expect(again.cookies).toEqual([]);
      const users = await t.database.db.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(users).toHaveLength(1);
    });

    it('expires: a link past its expires_at says it expired and creates no account', async () => {
      const email = uniqueEmail('late');
      await signUp(email, 'ja');
      const link = (await waitForMail(t.outbox, email)).link!;
      await t.database.db
        .updateTable('email_tokens')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('token_hash', '=', hashToken(tokenOf(link)))
        .execute();
      // In the language the link was asked for.
      expect((await openMailLink(t, link)).link).toEqual({ state: 'expired', email: null, locale: 'ja' });
      const response = await followMailLink(t, link);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ state: 'expired', locale: 'ja', message: 'This link has expired.' });
      expect(await t.database.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
    });

    it('makes one account when both of two sign-up links for one address are followed', async () => {
      const email = uniqueEmail('twice');
      await signUp(email);
      await signUp(email);
      const links = [
        (await waitForMail(t.outbox, email)).link!,
        (await waitForMail(t.outbox, email, { count: 2 })).link!,
      ];
      const responses = await Promise.all(links.map((link) => followMailLink(t, link)));
      expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
      const sessions = await Promise.all(responses.map((response) => session(sessionCookieOf(response))));
      const users = await t.database.db.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(users).toHaveLength(1);
      expect(sessions.map((body) => body.current_user.id)).toEqual([users[0].id, users[0].id]);
    });

    it('says an unknown or empty token is not valid', async () => {
      for (const token of ['not-a-real-token', '']) {
        const link = `${PUBLIC_URL}/#/signup/confirm?token=${token}`;
        expect((await openMailLink(t, link)).link).toEqual({ state: 'unknown', email: null, locale: null });
        const response = await followMailLink(t, link);
        expect(response.statusCode).toBe(409);
        expect(response.json()).toMatchObject({
          state: 'unknown',
          locale: null,
          message: 'This link is not valid. Please check that it was copied whole.',
        });
      }
    });

    it("answers 409 'The email address has been already registered.' for a registered address (in any case) and mails nothing", async () => {
      const user = await createTestUser(t.database.db);
      const response = await signUp(` ${user.email.toUpperCase()} `);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: 'The email address has been already registered.',
      });
      expect(readOutbox(t.outbox).filter((mail) => mail.to.toLowerCase().includes(user.email))).toEqual([]);
    });

    it("answers 422 'Invalid Format' for an address that is not something@something", async () => {
      for (const email of ['no-at-sign', 'two words@example.org', '@example.org']) {
        const response = await signUp(email);
        expect(response.statusCode).toBe(422);
        expect(response.json().errors).toEqual({ email: ['Invalid Format'] });
      }
    });
  });

  describe('POST /api/password_reset/verify_email and the reset link', () => {
    it('answers the same 204 for a registered and an unknown address, and mails only the registered one', async () => {
      const user = await insertUserWithPassword(t);
      const unknownEmail = uniqueEmail('unknown');
      const unknown = await requestReset(unknownEmail);
      const known = await requestReset(user.email);
      expect(unknown.statusCode).toBe(204);
      expect(known.statusCode).toBe(204);
      expect(unknown.body).toBe(known.body);
      await waitForMail(t.outbox, user.email);
      expect(readOutbox(t.outbox).filter((mail) => mail.to === unknownEmail)).toEqual([]);
    });

    it("mails the link in the account's locale (ja), valid for 1 hour", async () => {
      const user = await insertUserWithPassword(t, { locale: 'ja' });
      await requestReset(user.email);
      const mail = await waitForMail(t.outbox, user.email);
      expect(mail.subject).toBe('Galaxy Cruise: パスワードの再設定');
      expect(mail.text).toContain('1 時間で無効になります');
      const row = await t.database.db
        .selectFrom('email_tokens')
        .selectAll()
        .where('token_hash', '=', hashToken(tokenOf(mail.link!)))
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ purpose: 'password_reset', user_id: user.id });
      expect(row.expires_at.getTime() - row.created_at.getTime()).toBeCloseTo(3600_000, -4);
    });

    it('logs in with the password cleared (password_is_set false) and other sessions revoked; a new password can then be set', async () => {
      const user = await insertUserWithPassword(t);
      const elsewhere = await login(t, user.email, user.password);
      await requestReset(user.email);
      const link = (await waitForMail(t.outbox, user.email)).link!;
      expect(link.startsWith(`${PUBLIC_URL}/#/password_reset/confirm?token=`)).toBe(true);
      const followed = await followMailLink(t, link);
      expect(followed.statusCode).toBe(200);
      expect(followed.json().current_user).toMatchObject({ id: user.id, password_is_set: false });
      const cookies = sessionCookieOf(followed);
      expect((await session(cookies)).current_user).toMatchObject({ id: user.id, password_is_set: false });
      expect((await session(elsewhere)).current_user).toBeNull();
      const oldPassword = await t.inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: user.email, password: user.password },
      });
      expect(oldPassword.statusCode).toBe(422);
      // The forced set-password dialog needs no current password now.
      const set = await t.inject({
        method: 'PUT',
        url: '/api/signup/password',
        cookies,
        payload: { password: 'a fresh password' },
      });
      expect(set.statusCode).toBe(204);
      await login(t, user.email, 'a fresh password');
    });

    it('works once, expires after its hour, and only the newest link works', async () => {
      const user = await insertUserWithPassword(t);
      await requestReset(user.email);
      const first = (await waitForMail(t.outbox, user.email)).link!;
      await requestReset(user.email);
      const second = (await waitForMail(t.outbox, user.email, { count: 2 })).link!;
      expect(second).not.toBe(first);
      expect((await followMailLink(t, first)).json()).toMatchObject({ statusCode: 409, state: 'unknown' });
      expect((await followMailLink(t, second)).statusCode).toBe(200);
      const used = await followMailLink(t, second);
      expect(used.statusCode).toBe(409);
      expect(used.json()).toMatchObject({ state: 'used', locale: 'en' });

      await requestReset(user.email);
      const third = (await waitForMail(t.outbox, user.email, { count: 3 })).link!;
      await t.database.db
        .updateTable('email_tokens')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('token_hash', '=', hashToken(tokenOf(third)))
        .execute();
      const expired = await followMailLink(t, third);
      expect(expired.statusCode).toBe(409);
      expect(expired.json()).toMatchObject({ state: 'expired', message: 'This link has expired.' });
    });

    it('gives a deleted account no way back through an older link', async () => {
      const user = await insertUserWithPassword(t);
      await requestReset(user.email);
      const link = (await waitForMail(t.outbox, user.email)).link!;
      const cookies = await login(t, user.email, user.password);
      expect((await t.inject({ method: 'DELETE', url: '/api/current_user', cookies })).statusCode).toBe(204);
      expect((await followMailLink(t, link)).json()).toMatchObject({ statusCode: 409, state: 'unknown' });
    });
  });
});

describe('mail transport', () => {
  it('writes an .eml file to the outbox and logs the link when SMTP_URL is unset', async () => {
    const outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-outbox-'));
    let log = '';
    const logger = pino(
      new Writable({
        write(chunk, _encoding, done) {
          log += chunk;
          done();
        },
      }),
    );
    const mailer = createMailer({ smtpUrl: undefined, outboxDirectory: outbox, from: 'Galaxy Cruise <a@b.c>', logger });
    const link = 'http://localhost:8080/#/signup/confirm?token=abc';
    await mailer.send({ to: 'vega@example.org', subject: 'Subject', text: `Open ${link}`, link });
    await mailer.close();
    const mails = readOutbox(outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'vega@example.org', subject: 'Subject', link });
    expect(JSON.parse(log.trim())).toMatchObject({ link, to: 'vega@example.org', msg: 'mail written to the outbox' });
    fs.rmSync(outbox, { recursive: true });
  });

  describe.each(DATABASE_KINDS)('with SMTP_URL on %s', (kind) => {
    it('sends sign-up mail through the SMTP server, and answers 503 when it cannot be reached', async () => {
      const smtp = await startSmtpServer();
      const t = await startTestApp(kind, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL });
      try {
        const email = uniqueEmail('smtp');
        const response = await t.inject({
          method: 'POST',
          url: '/api/signup/verify_email',
          payload: { email, locale: 'en' },
        });
        expect(response.statusCode).toBe(204);
        expect(smtp.messages).toHaveLength(1);
        expect(smtp.messages[0].recipients).toEqual([email]);
        const mail = parseMail('smtp', smtp.messages[0].data);
        expect(mail.subject).toBe('Galaxy Cruise: confirm your e-mail address');
        expect((await followMailLink(t, mail.link!)).statusCode).toBe(200);
        expect(readOutbox(t.outbox)).toEqual([]);
      } finally {
        await t.close();
        await smtp.close();
      }

      const unreachable = await startTestApp(kind, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL });
      try {
        const response = await unreachable.inject({
          method: 'POST',
          url: '/api/signup/verify_email',
          payload: { email: uniqueEmail('nomail'), locale: 'en' },
        });
        expect(response.statusCode).toBe(503);
        expect(response.json().message).toBe('The verification mail could not be sent. Please try again later.');
      } finally {
        await unreachable.close();
      }
    });
  });
});

/** The smallest SMTP server nodemailer will talk to (RFC 5321 without extensions). */
async function startSmtpServer() {
  const messages: { recipients: string[]; data: string }[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let recipients: string[] = [];
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push({ recipients, data: buffer.slice(0, end).replace(/^\.\./gm, '.') });
          buffer = buffer.slice(end + 5);
          inData = false;
          recipients = [];
          socket.write('250 OK queued\r\n');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'RCPT') {
          recipients.push(/<([^>]*)>/.exec(line)![1]);
          socket.write('250 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
