// Issue 32 item 9: a captain's HTML message shows images of the site's own and inline data:
// images only (src/app/components/notificationHtml.ts); DOMPurify applies the rule in the browser
// (tests/e2e/admin-notifications.spec.ts shows it on a volunteer's page).
import { describe, expect, it } from 'vitest';
import { FORBIDDEN_ATTRIBUTES, FORBIDDEN_TAGS, isOwnImageSource } from '../../src/app/components/notificationHtml';

const ORIGIN = 'https://cruise.example.org';

describe('isOwnImageSource', () => {
  it.each([
    'x',
    '/images/stamp.png',
    './a.png',
    `${ORIGIN}/a.png`,
    ' data:image/png;base64,iVBORw0KGgo=',
    'data:image/jpeg,xyz',
  ])('takes %j', (src) => expect(isOwnImageSource(src, ORIGIN)).toBe(true));

  it.each([
    'https://probe.example/pixel.png',
    '//probe.example/pixel.png',
    'http://cruise.example.org/a.png',
    'https://cruise.example.org:8443/a.png',
    'data:image/svg+xml,<svg/>',
    'data:text/html,<p>',
    'javascript:alert(1)',
    'https://cruise.example.org.probe.example/a.png',
  ])('refuses %j', (src) => expect(isOwnImageSource(src, ORIGIN)).toBe(false));
});

it('forbids forms, their controls and styles', () => {
  expect(FORBIDDEN_TAGS).toEqual(expect.arrayContaining(['form', 'input', 'button', 'textarea', 'style']));
  expect(FORBIDDEN_ATTRIBUTES).toEqual(expect.arrayContaining(['style', 'srcset']));
});
