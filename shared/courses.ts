// GET /api/courses (issue 30; beside application-spec's calls, which it does not change): every
// course the server plays, so the client can name and show a research group's imported courses.
import type { Localized } from './catalogue';
import type { GalaxyType, Interaction } from './enums';
import type { PrettyPreset } from './prettyPicture';

/**
 * The colour settings of a HiPS of FITS tiles (a pretty-picture preset of one filter,
 * shared/prettyMixing.ts): the viewer stretches each decoded tile with them.
 */
export type HipsColour = Omit<PrettyPreset, 'view'>;

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
  /** With a HiPS of FITS tiles: its colour settings (the manifest's, or derived from the tiles). */
  hips_colour?: HipsColour;
}

export type CoursesResponse = CourseEntry[];

/** GET /api/admin/courses (administrators): a course with where it comes from and its progress. */
export interface AdminCourseEntry extends CourseEntry {
  /** 'catalogue' for the sky's courses; the manifest file an imported course was imported from last. */
  source: string;
  levels: number;
  /** Current targets (those a re-import or the sky's seeding retired are not counted). */
  targets: number;
  /** Current targets with at least one answer. */
  answered_targets: number;
  /** Volunteers with at least one answer in the course. */
  volunteers: number;
  answers: number;
}

/** PUT /api/admin/courses/{course_id}: opens an imported course to volunteers or closes it (204). */
export interface AdminCourseUpdate {
  open: boolean;
}

/** A course's retirement rule (docs/science.md, "Retirement"), as its manifest gives it. */
export interface Retirement {
  minVolunteers: number | null;
  minConfidence: number | null;
  maxVolunteers: number | null;
}

/** One row of an imported target list (docs/import.md), as the import hands it to the course writer. */
export interface ImportedTarget {
  /** The n-th target of the file. */
  row: number;
  id: number;
  /** Degrees, ra in [0, 360), dec in [−90, 90]. */
  ra: number;
  dec: number;
  name: string | null;
  galaxyType: GalaxyType | null;
  interaction: Interaction | null;
  ring: boolean | null;
  fan: boolean | null;
  tail: boolean | null;
  distorted: boolean | null;
  captainNote: string | null;
}
