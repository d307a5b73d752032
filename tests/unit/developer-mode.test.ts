// Developer mode (application-spec §6): on from a local address or a development path, off for
// any other host, private networks included (a self-hosted site on an intranet).
import { describe, expect, it } from 'vitest';
import { isDeveloperModeAt } from '../../src/app/developerMode';

describe('developer mode', () => {
  it.each(['http://localhost:8080/', 'http://127.0.0.1:8080/', 'http://127.1.2.3/', 'http://[::1]:8080/'])(
    'is on at the local address %s',
    (url) => expect(isDeveloperModeAt(new URL(url))).toBe(true),
  );

  it.each(['http://galaxy.example.org/devel/Home', 'http://galaxy.example.org/src/app/main.tsx'])(
    'is on at the development path %s',
    (url) => expect(isDeveloperModeAt(new URL(url))).toBe(true),
  );

  it.each([
    'https://galaxy.example.org/',
    'http://192.168.1.20:8080/',
    'http://10.0.0.5/',
    'http://172.16.4.1/',
    'http://cruise.local/',
    'https://localhost.example.org/',
    'https://galaxy.example.org/developers',
  ])('is off at %s', (url) => expect(isDeveloperModeAt(new URL(url))).toBe(false));
});
