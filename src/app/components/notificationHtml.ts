// What a captain's HTML message (a notification with html on) may hold once sanitised, beyond
// DOMPurify's HTML profile, which already removes scripts, event attributes and javascript:
// links. A message is shown inside the app's own page, so it must not be able to pass for the
// app or report on its readers:
// - no forms or form controls (a form in a message could ask for a password and post it
//   anywhere), no <style> and no style attributes (CSS can cover the page with a look-alike);
// - images only from the site itself or inline data: images (an image from another origin tells
//   that origin who read the message, and when). An image of another origin is removed whole.
// sanitizeNotificationHtml applies it in NotificationBody.tsx; the rules are here, without the
// DOM, so that they can be tested anywhere.

export const FORBIDDEN_TAGS = [
  'form',
  'input',
  'button',
  'select',
  'option',
  'optgroup',
  'textarea',
  'fieldset',
  'style',
  'link',
  'meta',
  'base',
] as const;

export const FORBIDDEN_ATTRIBUTES = ['style', 'action', 'formaction', 'srcset', 'background', 'ping'] as const;

/** Inline raster images (not SVG, whose documents can hold more than pixels). */
const DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|webp|avif)[;,]/i;

/** Whether an image's src is the site's own (a relative or same-origin URL) or an inline data: image. */
export function isOwnImageSource(src: string, pageOrigin: string): boolean {
  const source = src.trim();
  if (DATA_IMAGE.test(source)) return true;
  try {
    const url = new URL(source, `${pageOrigin}/`);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === pageOrigin;
  } catch {
    return false;
  }
}
