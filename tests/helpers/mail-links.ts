// Following a mail link in the server tests the way the app's page does: opening the page asks
// what the link would do (POST /api/{kind}/link, which changes nothing), and its button uses the
// link (POST /api/{kind}/confirm). The link must point at the test app's PUBLIC_URL.
import type { LightMyRequestResponse } from 'fastify';
import type { MailLinkResponse } from '../../shared/api';
import { mailLinkParts } from './outbox';
import type { TestApp } from './test-app';

/** What opening the link's page asks the server (and the answer, which changes nothing). */
export async function openMailLink(
  testApp: TestApp,
  link: string,
  cookies: Record<string, string> = {},
): Promise<LightMyRequestResponse & { link: MailLinkResponse }> {
  const { kind, token } = mailLinkParts(link);
  const response = await testApp.inject({ method: 'POST', url: `/api/${kind}/link`, payload: { token }, cookies });
  if (response.statusCode !== 200) throw new Error(`opening ${link}: ${response.statusCode} ${response.body}`);
  return Object.assign(response, { link: response.json<MailLinkResponse>() });
}

/** Opens the link's page and presses its button: the answer of POST /api/{kind}/confirm. */
export async function followMailLink(
  testApp: TestApp,
  link: string,
  cookies: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  await openMailLink(testApp, link, cookies);
  const { kind, token } = mailLinkParts(link);
  return testApp.inject({ method: 'POST', url: `/api/${kind}/confirm`, payload: { token }, cookies });
}
