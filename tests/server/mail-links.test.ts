// Mail links ask before they act (issue 32, items 5 and 6): opening a sign-up or password-reset
// link (the GET of an older mail's /api/{kind}/confirm address, or the app's page asking POST
// /api/{kind}/link) changes nothing: the token stays usable, no cookie is set, no password is
// cleared and no session ends, so a mail scanner or a link preview uses nothing up, and a
// volunteer who opens someone else's sign-up link stays who they are. Only the page's button
// (POST /api/{kind}/confirm) acts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/session-user';
import type { MailLinkKind } from '../../shared/api';
import { DATABASE_KINDS } from '../helpers/databases';
import { followMailLink, openMailLink } from '../helpers/mail-links';
import { mailLinkParts, waitForMail } from '../helpers/outbox';
import {
  insertUserWithPassword,
  login,
  nextIp,
  sessionCookieOf,
  startTestApp,
  uniqueEmail,
  type TestApp,
} from '../helpers/test-app';

const PUBLIC_URL = 'https://galaxy.example.org';

describe.each(DATABASE_KINDS)('mail links on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { PUBLIC_URL });
  });
  afterAll(async () => {
    await t?.close();
  });

  const currentUser = async (cookies: Record<string, string>) =>
    (await t.inject({ method: 'GET', url: '/api/session', cookies })).json().current_user;
  const tokenRow = (link: string) =>
    t.database.db
      .selectFrom('email_tokens')
      .select(['used_at'])
      .where('token_hash', '=', hashToken(mailLinkParts(link).token))
      .executeTakeFirstOrThrow();

  async function signUpLink(email: string): Promise<string> {
    const asked = await t.inject({ method: 'POST', url: '/api/signup/verify_email', payload: { email, locale: 'en' } });
    expect(asked.statusCode).toBe(204);
    return (await waitForMail(t.outbox, email)).link!;
  }

  async function resetLink(email: string, count = 1): Promise<string> {
    const asked = await t.inject({ method: 'POST', url: '/api/password_reset/verify_email', payload: { email } });
    expect(asked.statusCode).toBe(204);
    return (await waitForMail(t.outbox, email, { count })).link!;
  }

  /** The GET an older mail's link makes: /api/{kind}/confirm?token=…, with the browser's cookies. */
  function openOldLink(link: string, cookies: Record<string, string> = {}) {
    const { kind: linkKind, token } = mailLinkParts(link);
    return t.inject({ method: 'GET', url: `/api/${linkKind}/confirm?token=${token}`, cookies });
  }

  describe('the mail links to the app page that asks, with the token after #', () => {
    it('sign-up and reset mails link to #/{kind}/confirm?token=…, never sent to a server nor in a Referer', async () => {
      const user = await insertUserWithPassword(t);
      const links = [await signUpLink(uniqueEmail('page')), await resetLink(user.email)];
      expect(links.map((link) => new URL(link).pathname)).toEqual(['/', '/']);
      expect(links.map((link) => mailLinkParts(link).kind)).toEqual(['signup', 'password_reset']);
      for (const link of links) expect(new URL(link).search).toBe('');
    });

    it("an older mail's GET /api/{kind}/confirm?token=… redirects to that page (303), no-referrer", async () => {
      for (const linkKind of ['signup', 'password_reset'] as const) {
        const response = await t.inject({ method: 'GET', url: `/api/${linkKind}/confirm?token=abc-DEF_123` });
        expect(response.statusCode).toBe(303);
        expect(response.headers.location).toBe(`${PUBLIC_URL}/#/${linkKind}/confirm?token=abc-DEF_123`);
        expect(response.headers['referrer-policy']).toBe('no-referrer');
        expect(response.cookies).toEqual([]);
      }
      const cut = await t.inject({ method: 'GET', url: '/api/signup/confirm' });
      expect(cut.headers.location).toBe(`${PUBLIC_URL}/#/signup/confirm?token=`);
    });
  });

  describe('opening a sign-up link changes nothing', () => {
    it('leaves the token usable, creates no account and sets no session; the button then does', async () => {
      const email = uniqueEmail('scanned');
      const link = await signUpLink(email);
      const scanned = await openOldLink(link);
      expect(scanned.statusCode).toBe(303);
      expect(scanned.cookies).toEqual([]);
      const opened = await openMailLink(t, link);
      expect(opened.link).toEqual({ state: 'ready', email, locale: 'en' });
      expect(opened.cookies).toEqual([]);
      expect(await t.database.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
      expect((await tokenRow(link)).used_at).toBeNull();

      const pressed = await followMailLink(t, link);
      expect(pressed.statusCode).toBe(200);
      expect((await currentUser(sessionCookieOf(pressed))).email).toBe(email);
      expect((await tokenRow(link)).used_at).not.toBeNull();
    });

    it("keeps a logged-in volunteer's session when they open someone else's sign-up link", async () => {
      const volunteer = await insertUserWithPassword(t, { nickname: 'vega' });
      const cookies = await login(t, volunteer.email, volunteer.password);
      const stranger = uniqueEmail('stranger');
      const link = await signUpLink(stranger);

      const scanned = await openOldLink(link, cookies);
      expect(scanned.cookies).toEqual([]);
      const opened = await openMailLink(t, link, cookies);
      expect(opened.cookies).toEqual([]);
      expect(opened.link.email).toBe(stranger);
      expect(await currentUser(cookies)).toMatchObject({ id: volunteer.id, email: volunteer.email });

      // Only the button switches accounts, and the page has said so: the volunteer is logged out.
      const pressed = await followMailLink(t, link, cookies);
      expect(pressed.statusCode).toBe(200);
      expect(await currentUser(cookies)).toBeNull();
      expect((await currentUser(sessionCookieOf(pressed))).email).toBe(stranger);
    });
  });

  describe('opening a password-reset link changes nothing', () => {
    it('leaves the token usable, the password set and every session alive, and sets no session', async () => {
      const user = await insertUserWithPassword(t, { locale: 'ja' });
      const elsewhere = await login(t, user.email, user.password);
      const link = await resetLink(user.email);

      const scanned = await openOldLink(link);
      expect(scanned.statusCode).toBe(303);
      expect(scanned.cookies).toEqual([]);
      const opened = await openMailLink(t, link);
      expect(opened.link).toEqual({ state: 'ready', email: user.email, locale: 'ja' });
      expect(opened.cookies).toEqual([]);
      expect((await tokenRow(link)).used_at).toBeNull();
      expect(await currentUser(elsewhere)).toMatchObject({ id: user.id, password_is_set: true });
      await login(t, user.email, user.password);

      // The button: the password cleared, every session ended, this browser logged in.
      const pressed = await followMailLink(t, link);
      expect(pressed.statusCode).toBe(200);
      expect(await currentUser(sessionCookieOf(pressed))).toMatchObject({ id: user.id, password_is_set: false });
      expect(await currentUser(elsewhere)).toBeNull();
      expect((await tokenRow(link)).used_at).not.toBeNull();
    });

    it("keeps a logged-in volunteer's session when they open another account's reset link", async () => {
      const volunteer = await insertUserWithPassword(t);
      const cookies = await login(t, volunteer.email, volunteer.password);
      const other = await insertUserWithPassword(t);
      const link = await resetLink(other.email);
      await openOldLink(link, cookies);
      await openMailLink(t, link, cookies);
      expect(await currentUser(cookies)).toMatchObject({ id: volunteer.id });
      const pressed = await followMailLink(t, link, cookies);
      expect(await currentUser(cookies)).toBeNull();
      expect((await currentUser(sessionCookieOf(pressed))).id).toBe(other.id);
    });
  });

  describe('the POSTs are guarded like every state-changing call', () => {
    it.each(['signup', 'password_reset'] satisfies MailLinkKind[])(
      '%s: a cross-site request is refused (403), a body that is not JSON is a 415, and the token stays usable',
      async (linkKind) => {
        const user = await insertUserWithPassword(t);
        const link = linkKind === 'signup' ? await signUpLink(uniqueEmail('guarded')) : await resetLink(user.email);
        const { token } = mailLinkParts(link);
        for (const route of ['link', 'confirm']) {
          const crossSite = await t.inject({
            method: 'POST',
            url: `/api/${linkKind}/${route}`,
            headers: { 'sec-fetch-site': 'cross-site' },
            payload: { token },
          });
          expect(crossSite.statusCode).toBe(403);
          const form = await t.inject({
            method: 'POST',
            url: `/api/${linkKind}/${route}`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: `token=${token}`,
          });
          expect(form.statusCode).toBe(415);
        }
        expect((await tokenRow(link)).used_at).toBeNull();
      },
    );

    it('GET, POST …/link and POST …/confirm share the mail-link limit: 30 per 10 minutes per IP', async () => {
      const ip = nextIp();
      const kinds = ['signup', 'password_reset'] as const;
      const send = (attempt: number) => {
        const linkKind = kinds[attempt % 2];
        if (attempt % 3 === 0)
          return t.inject({ method: 'GET', url: `/api/${linkKind}/confirm?token=guess${attempt}`, remoteAddress: ip });
        return t.inject({
          method: 'POST',
          url: `/api/${linkKind}/${attempt % 3 === 1 ? 'link' : 'confirm'}`,
          remoteAddress: ip,
          payload: { token: `guess${attempt}` },
        });
      };
      for (let attempt = 0; attempt < 30; attempt++) expect((await send(attempt)).statusCode).not.toBe(429);
      for (let attempt = 30; attempt < 33; attempt++) {
        const refused = await send(attempt);
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
    });
  });
});
