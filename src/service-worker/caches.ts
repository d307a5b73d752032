// What is kept in Cache Storage, by name, and which requests go where: the one list of the
// service worker (sw.ts) and the page (src/app/api/lastSeen.ts, src/app/features/offline/).
//
// - The app's shell: the built client, precached by Workbox (its own cache, named by Workbox).
// - The sky's backdrop (SKY_BACKDROP_CACHE): what every start draws — the star catalogue, the
//   Milky Way's faces, the HiPS at its minimum order (viewer-spec §9: 3) and its Allsky image —
//   and the metadata files that say what the other files are (JSON, HiPS `properties`). Kept in a
//   cache of their own so that a long cruise's tiles never push them out.
// - The sky's tiles (SKY_TILES_CACHE): the survey tiles of the targets seen and of those the
//   prefetch loaded ahead, the deeper HiPS orders, pretty pictures, the dialogs' images.
// - The volunteer's own (PERSONAL_CACHE): the /api/ answers the offline start needs, written and
//   read by the page (src/app/api/lastSeen.ts) as it last saw them, deleted at logout; the worker
//   does not touch it.
// Both sky caches are bounded by count and bytes, least recently used out first (cache-bound.ts).
import { DATA_REPOSITORY_PATH } from '../../core/dataRepository';

export const SKY_BACKDROP_CACHE = 'galaxy-cruise-sky-backdrop';
export const SKY_TILES_CACHE = 'galaxy-cruise-sky-tiles';
export const PERSONAL_CACHE = 'galaxy-cruise-personal';

export interface CacheLimits {
  /** At most this many files. */
  maxEntries: number;
  /** At most this many bytes of bodies (as stored: decoded). */
  maxBytes: number;
}

const MB = 1_000_000;

/**
 * The bounds of the sky caches. The backdrop holds the small sky's 1500 files in 15 MB (HiPS
 * order 3 in two formats, stars, Milky Way), with room for a fuller HiPS; the tiles hold some
 * 3000 survey tiles: with 12 to 40 files a target (three filters, the view's tiles and their
 * coarser levels), the last 75 to 250 targets seen.
 */
export const SKY_CACHE_LIMITS: Record<'backdrop' | 'tiles', CacheLimits> = {
  backdrop: { maxEntries: 2500, maxBytes: 50 * MB },
  tiles: { maxEntries: 3000, maxBytes: 100 * MB },
};

/** The HiPS's minimum order by default (viewer-spec §9): its tiles and Allsky image are the backdrop. */
export const BACKDROP_HIPS_ORDER = 3;

/** The folders of {dataRepository} whose files every start draws (viewer-spec §7). */
const BACKDROP_FOLDERS = ['hipparcos-catalog/', 'milkyway/'];

/** {hipsBase}/Norder{order}/Dir{d}/Npix{index}.{format} (viewer-spec §7) and {hipsBase}/Norder{order}/Allsky.{format}. */
const HIPS_FILE = /\/Norder(\d+)\/(?:Allsky|Dir\d+\/Npix\d+)\.[\w.]+$/;

const REPOSITORY = `/${DATA_REPOSITORY_PATH}/`;

export type SkyFileKind = 'metadata' | 'backdrop' | 'tile';

/**
 * What a GET of `url` is to the sky caches: a metadata file (kept, revalidated each time it is
 * used), a backdrop file or a tile (kept as they are: their names do not change meaning while
 * their metadata does not), or nothing of the sky (null). A HiPS is recognised by its layout on
 * any host (an imported course's HiPS may live elsewhere); the rest by {dataRepository}'s path,
 * on this site or on DATA_HOST.
 */
export function skyFileKind(url: URL): SkyFileKind | null {
  const path = url.pathname;
  const hips = HIPS_FILE.exec(path);
  if (hips) return Number(hips[1]) <= BACKDROP_HIPS_ORDER ? 'backdrop' : 'tile';
  if (path.endsWith('/properties')) return 'metadata';
  const at = path.indexOf(REPOSITORY);
  if (at < 0) return null;
  const inside = path.slice(at + REPOSITORY.length);
  if (inside.endsWith('.json')) return 'metadata';
  if (BACKDROP_FOLDERS.some((folder) => inside.startsWith(folder))) return 'backdrop';
  return 'tile';
}

/**
 * The folder a metadata file describes (its URL up to the last '/'): when the file changes, the
 * files kept from that folder and below may no longer be what it says, and are dropped.
 */
export function describedFolder(url: string): string {
  return url.slice(0, url.lastIndexOf('/') + 1);
}

/**
 * The calls of application-spec §7 that the main screen makes on opening, whose answers the
 * offline start needs: the session (who is logged in), the courses, the levels of a course (the
 * stage name) and its current quest. Only GETs, only of these paths; nothing else of /api/ is kept.
 */
const OFFLINE_START_CALLS = [
  /^\/api\/session$/,
  /^\/api\/courses$/,
  /^\/api\/levels$/,
  /^\/api\/courses\/[\w-]+\/quests\/current$/,
];

export function isOfflineStartCall(pathname: string): boolean {
  return OFFLINE_START_CALLS.some((pattern) => pattern.test(pathname));
}

/** Messages from the page to the worker. */
export type WorkerMessage =
  /** Take over now: the volunteer chose to reload into the new version. */
  | { type: 'SKIP_WAITING' }
  /**
   * The sky files this page loaded before the worker controlled it (a first visit), to be kept
   * from the browser's HTTP cache without asking the network again.
   */
  | { type: 'KEEP_LOADED'; urls: string[] };
