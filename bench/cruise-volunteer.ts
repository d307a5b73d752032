// The cruise suite's people, made over HTTP as a visitor makes one: a volunteer past the gate (the
// sign-up mail's link read from the server's outbox, then password, nickname and questionnaire),
// and the captain (an administrator, ADMIN_EMAILS) who leaves a new message before each login.
import fs from 'node:fs';
import path from 'node:path';
import type { BenchServer } from './browser';

/** Every bench volunteer's password (the login screen types it). */
export const PASSWORD = 'correct horse battery';

/** An HTTP call with a session's cookies: method, URL on the server, JSON body. */
export type SessionCall = (method: string, url: string, body?: unknown) => Promise<Response>;

/**
 * A volunteer past the gate, made over HTTP as a visitor makes one (the mailed link from the
 * outbox): its e-mail, and a call that carries its session.
 */
export async function makeVolunteer(
  server: BenchServer,
  email = `bench-${Date.now()}@example.org`,
): Promise<{ email: string; call: SessionCall }> {
  const cookies = new Map<string, string>();
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(new URL(url, server.origin), {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const equals = pair.indexOf('=');
      cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
    }
    if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response;
  };
  await call('POST', '/api/signup/verify_email', { email, locale: 'en' });
  const outbox = path.join(server.varDirectory, 'outbox');
  // The mail links the app's page #/signup/confirm?token=…, whose button posts the token.
  let token: string | undefined;
  for (let tries = 0; !token && tries < 600; tries++) {
    for (const file of fs.existsSync(outbox) ? fs.readdirSync(outbox) : []) {
      // Quoted-printable soft line breaks and '=' written as =3D.
      const text = fs
        .readFileSync(path.join(outbox, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (text.includes(email)) token = /#\/signup\/confirm\?token=([\w-]+)/.exec(text)?.[1];
    }
    if (!token) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!token) throw new Error(`no sign-up mail for ${email} in ${outbox}`);
  await call('POST', '/api/signup/confirm', { token });
  await call('PUT', '/api/signup/password', { password: PASSWORD });
  await call('PUT', '/api/current_user', { nickname: `bench${Date.now()}`, locale: 'en' });
  await call('POST', '/api/current_user/private_information', {
    birth_year: 1990,
    country_code: 392,
    gender: 'other',
    reasons_for_participation: ['science'],
    relation_to_astronomy: 2,
    time_spent_in_astronomy: 1,
    way_to_know_this_site: 'search',
  });
  return { email, call };
}

/** The administrator (ADMIN_EMAILS) who leaves the captain's message before each login. */
export const CAPTAIN_EMAIL = 'captain@bench.example.org';
/** The captain's message's title, as its dialog is named. */
export const CAPTAIN_TITLE = 'Fair winds';

/** A new captain's message (application-spec §5), unread by every volunteer until OK'd. */
export async function leaveCaptainMessage(captain: SessionCall): Promise<void> {
  await captain('POST', '/api/notifications', {
    type: 'captain_message',
    title: { en: CAPTAIN_TITLE, ja: '順風満帆' },
    message: { en: 'The captain thanks the crew.', ja: '船長から乗組員へ感謝を込めて。' },
    locale_fallback: false,
  });
}
