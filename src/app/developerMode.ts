// Developer mode (application-spec §6) and the constants it changes (§9). It is on when the page
// runs from a local address (localhost or a loopback address: the developer's own machine) or
// from a development path (/devel or a Vite dev server's /src/ path); it enables the /devel pages.
// A private-network address is not a developer's: a research group serving its volunteers on an
// intranet gets the volunteers' constants.

const LOCAL_HOST = /^(localhost|127(?:\.\d+){3}|\[?::1\]?)$/i;

/** Whether a page at `url` runs in developer mode. */
export function isDeveloperModeAt(url: URL): boolean {
  return LOCAL_HOST.test(url.hostname) || /^\/(devel|src)\b/.test(url.pathname);
}

export const developerMode: boolean = typeof window !== 'undefined' && isDeveloperModeAt(new URL(window.location.href));

/** §9 constants; the second value is developer mode's. */
export const FLASH_MS = developerMode ? 200 : 1000;
export const NOTIFICATION_REFETCH_MS = developerMode ? 5_000 : 60_000;
export const OBJECTS_PER_PIECE = developerMode ? 3 : 30;
export const GLOBE_JUMP_SPEED = developerMode ? 0.1 : 1;
/** §9: modal animation 400 ms, shake 200 ms, page fade 0.2 s. */
export const MODAL_ANIMATION_MS = 400;
export const SHAKE_MS = 200;
export const PAGE_FADE_MS = 200;
/** §9: tooltip offset and arrow padding. */
export const TOOLTIP_OFFSET_PX = 20;
export const TOOLTIP_ARROW_PADDING_PX = 12;
