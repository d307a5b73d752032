// What the volunteer sees, by the browser's own hit testing and boxes rather than by the DOM
// alone: a control is shown only if nothing lies over it, one dialog is painted at a time, and a
// form's error tooltips sit at their own fields wherever the form is scrolled.
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Fails unless the element the browser would hit at the locator's centre is the locator's own
 * element or inside it: a control under another (a dialog behind, a header, a menu) is not
 * "shown".
 */
export async function expectNotCovered(locator: Locator) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  expect(box, 'a box on screen').not.toBeNull();
  const hit = await locator.evaluate(
    (element, [x, y]) => {
      const top = document.elementFromPoint(x, y);
      return top !== null && (element === top || element.contains(top));
    },
    [box!.x + box!.width / 2, box!.y + box!.height / 2] as const,
  );
  expect(hit, 'nothing covers it at its centre').toBe(true);
}

/** The dialog overlays the browser paints (a hidden one is laid out but not painted). */
export async function paintedDialogs(page: Page) {
  return page
    .locator('.dialog-overlay')
    .evaluateAll((overlays) => overlays.filter((overlay) => getComputedStyle(overlay).visibility === 'visible').length);
}

/** Where one invalid control's tooltip is, as the browser lays it out. */
interface TooltipPlace {
  field: string;
  text: string;
  /** The tooltip's offset from its control's top left corner. */
  dx: number;
  dy: number;
  /** Its box lies inside its own field's box. */
  inOwnField: boolean;
  /** The fields (other than the ones around its own) whose boxes it overlaps. */
  overOtherFields: string[];
  /** Whether its centre lies where it can be seen (inside every scrolling box around it). */
  inView: boolean;
  /** Whether the browser hits the tooltip itself at its centre. */
  uncovered: boolean;
}

/** Measures every invalid control under `scope` with its tooltip (found by aria-describedby). */
async function measureTooltips(scope: Locator): Promise<TooltipPlace[]> {
  return scope.evaluate((root) => {
    const fields = [...root.querySelectorAll('.field, fieldset')];
    const name = (field: Element) =>
      (field.querySelector(':scope > label, :scope > legend')?.textContent ?? field.tagName).trim();
    const overlaps = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const inside = (inner: DOMRect, outer: DOMRect) =>
      inner.left >= outer.left - 0.5 &&
      inner.right <= outer.right + 0.5 &&
      inner.top >= outer.top - 0.5 &&
      inner.bottom <= outer.bottom + 0.5;
    const visibleAt = (element: Element, x: number, y: number) => {
      for (let box = element.parentElement; box; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (!/(auto|scroll|hidden)/.test(style.overflowY + style.overflowX)) continue;
        const rect = box.getBoundingClientRect();
        if (x < rect.left || x > rect.right || y < rect.top || y > rect.bottom) return false;
      }
      return x >= 0 && y >= 0 && x <= innerWidth && y <= innerHeight;
    };
    return [...root.querySelectorAll('[aria-invalid="true"][aria-describedby]')].flatMap((control) => {
      const id = control
        .getAttribute('aria-describedby')!
        .split(' ')
        .find((candidate) => candidate.endsWith('-error'));
      const message = id ? document.getElementById(id) : null;
      if (!message) return [];
      const tooltip = message.closest('[role="tooltip"]') ?? message;
      const field = control.closest('.field, fieldset') ?? control;
      const own = tooltip.getBoundingClientRect();
      const at = control.getBoundingClientRect();
      const x = own.left + own.width / 2;
      const y = own.top + own.height / 2;
      const hit = document.elementFromPoint(x, y);
      return [
        {
          field: name(field),
          text: (tooltip.textContent ?? '').trim(),
          dx: own.left - at.left,
          dy: own.top - at.top,
          inOwnField: inside(own, field.getBoundingClientRect()),
          overOtherFields: fields
            .filter((other) => !other.contains(field) && overlaps(own, other.getBoundingClientRect()))
            .map(name),
          inView: visibleAt(tooltip, x, y),
          uncovered: hit !== null && (tooltip === hit || tooltip.contains(hit)),
        },
      ];
    });
  });
}

/**
 * Fails unless each error tooltip under `scope` sits inside its own field and over no other, is
 * not covered where it is in view, and keeps its place beside its control while `scroller` (the
 * dialog's body, or the page) is scrolled to the top, the middle and the bottom. Returns the
 * number of tooltips checked.
 */
export async function expectTooltipsAtTheirFields(scope: Locator, scroller: Locator): Promise<number> {
  const scrollTo = (fraction: number) =>
    scroller.evaluate((element, part) => {
      element.scrollTop = (element.scrollHeight - element.clientHeight) * part;
    }, fraction);
  let first: TooltipPlace[] | undefined;
  for (const fraction of [0, 0.5, 1]) {
    await scrollTo(fraction);
    const places = await measureTooltips(scope);
    expect(places.length, 'some error tooltips').toBeGreaterThan(0);
    for (const place of places) {
      expect(place.inOwnField, `"${place.text}" inside its field "${place.field}"`).toBe(true);
      expect(place.overOtherFields, `"${place.text}" of "${place.field}" over no other field`).toEqual([]);
      if (place.inView) expect(place.uncovered, `"${place.text}" of "${place.field}" uncovered`).toBe(true);
    }
    first ??= places;
    // The same place beside its control wherever the form is scrolled.
    expect(places.map(({ field, dx, dy }) => ({ field, dx: Math.round(dx), dy: Math.round(dy) }))).toEqual(
      first.map(({ field, dx, dy }) => ({ field, dx: Math.round(dx), dy: Math.round(dy) })),
    );
  }
  await scrollTo(0);
  return first?.length ?? 0;
}
