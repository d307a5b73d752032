// GET /api/courses (issue 30; beside application-spec's calls, which it does not change): every
// course the server plays, so the client can name and show a research group's imported courses.
import type { Localized } from './catalogue';

export interface CourseEntry {
  id: string;
  /** An imported course's names; absent for the five of application-spec, named by the client's strings. */
  name?: Localized;
  /** Written by `galaxy-cruise import` rather than by the sky's catalogue. */
  imported: boolean;
  /** Whether volunteers may sail it: GET /api/courses/{id}/quests/current of a closed course is 403. */
  open: boolean;
  /**
   * An imported course's HiPS: an http(s) URL as the manifest gave it, or, for a HiPS folder the
   * import copied, a path relative to {dataRepository} (`imports/<course>/hips/`), so that it is
   * served wherever the sky data is (this server, or DATA_HOST). Ends with '/'.
   */
  hips_url?: string;
}

export type CoursesResponse = CourseEntry[];
