// Volunteers for the browser tests, made the way a visitor makes one: the sign-up mail is asked
// for over HTTP and its link (from the server's outbox) used in a request context as its page's
// button uses it (POST /api/signup/confirm with the token), and the context then holds the
// volunteer's session. Each call is one sign-up, and the server allows 5 an hour
// from one address: a spec run stays under that.
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { e2eServer } from './e2e-server';
import { mailLinkParts, waitForMail } from './outbox';

/** The outbox of the server the running test's project drives. */
export function outbox(): string {
  return path.join(e2eServer().varDir, 'outbox');
}

let counter = 0;

/** A fresh address on example.org, unique to this run. */
export function freshEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now()}-${counter}@example.org`;
}

/** Signs `email` up and uses the link in `context`: the context is then logged in. */
export async function signUpThroughMail(context: APIRequestContext, email: string, locale: 'en' | 'ja' = 'en') {
  const asked = await context.post('/api/signup/verify_email', { data: { email, locale } });
  expect(asked.status()).toBe(204);
  const mail = await waitForMail(outbox(), email);
  const { token } = mailLinkParts(mail.link!);
  expect((await context.post('/api/signup/confirm', { data: { token } })).ok()).toBe(true);
}

/** A volunteer who has passed the gate: password, nickname and questionnaire set over HTTP. */
export async function readyVolunteer(
  context: APIRequestContext,
  {
    email = freshEmail('ready'),
    password = 'correct horse battery',
    nickname = `n${Date.now()}`,
    locale = 'en' as 'en' | 'ja',
  } = {},
) {
  await signUpThroughMail(context, email, locale);
  expect((await context.put('/api/signup/password', { data: { password } })).ok()).toBe(true);
  expect((await context.put('/api/current_user', { data: { nickname, locale } })).ok()).toBe(true);
  const answers = {
    birth_year: 1990,
    country_code: 392,
    gender: 'other',
    reasons_for_participation: ['science'],
    relation_to_astronomy: 2,
    time_spent_in_astronomy: 1,
    way_to_know_this_site: 'search',
  };
  expect((await context.post('/api/current_user/private_information', { data: answers })).ok()).toBe(true);
  return { email, password, nickname };
}
