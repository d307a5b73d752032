// A rate limit's refusal (429) through the request helper (src/app/api/request.ts): the alert
// keeps the status and status text (application-spec §8) and says in the page's language to wait,
// in place of the response's JSON and 'Please Reload.'.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestError, alertText, request, setAlertHandler, setTooManyRequestsText } from '../../src/app/api/request';

const ENGLISH = 'Too many attempts. Please wait a few minutes and try again.';

describe('the alert of a 429', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setTooManyRequestsText(ENGLISH);
    setAlertHandler((message) => window.alert(message));
  });

  it('asks to wait, in the page language, and shows no JSON', async () => {
    const alerts: string[] = [];
    setAlertHandler((message) => alerts.push(message));
    const body = JSON.stringify({ statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded' });
    vi.stubGlobal('fetch', async () => new Response(body, { status: 429, statusText: 'Too Many Requests' }));
    await expect(request('post', '/api/signup/verify_email', { email: 'a@example.org' })).rejects.toBeInstanceOf(
      RequestError,
    );
    expect(alerts).toEqual([`429 Too Many Requests\n${ENGLISH}`]);
    setTooManyRequestsText('試行回数が多すぎます。数分待ってからもう一度お試しください。');
    await expect(request('post', '/api/session', {})).rejects.toMatchObject({ status: 429 });
    expect(alerts[1]).toBe('429 Too Many Requests\n試行回数が多すぎます。数分待ってからもう一度お試しください。');
  });

  it('leaves other failures to the spec alert with status and data', () => {
    const text = alertText(new RequestError(500, 'Internal Server Error', { message: 'boom' }));
    expect(text).toContain('500 Internal Server Error');
    expect(text).toContain('{"message":"boom"}');
  });
});
