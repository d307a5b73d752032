// The dialogs after a completed area, in the order of application-spec §4 (the souvenir piece an
// answer earned first, then the area's own: passport stamp, cabin upgrade, greed in and out,
// level change, tunnel effect, every season 2 cabin rank reached, the course's completion or no
// galaxy left).
import { expect } from '@playwright/test';

export const AREA_MESSAGE_ORDER = [
  'A souvenir puzzle piece',
  'Passport stamp added',
  'Cabin upgrade',
  'Greed level',
  'Back to the regular course',
  'New stage',
  'Tunnel effect',
  'Every cabin rank reached',
  'Training complete',
  'Season 2 complete',
  'No galaxy available',
];

/** Every title is one of the area's messages, and they came in the spec's order. */
export function expectInSpecOrder(titles: readonly string[]): void {
  expect(
    titles.filter((title) => !AREA_MESSAGE_ORDER.includes(title)),
    titles.join(', '),
  ).toEqual([]);
  expect(titles).toEqual([...titles].sort((a, b) => AREA_MESSAGE_ORDER.indexOf(a) - AREA_MESSAGE_ORDER.indexOf(b)));
}
