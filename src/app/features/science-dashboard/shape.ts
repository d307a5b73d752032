// The research dashboard's data shaped for its charts, tables and links: the ScienceSummary of
// GET /api/admin/science (shared/science.ts) as the long rows Observable Plot draws, and the
// addresses the page links to (a target's view on the globe, a course's export download).
import type { Locale } from '../../../../shared/api';
import type {
  ScienceAccuracyPoint,
  ScienceConfidenceBin,
  ScienceDay,
  ScienceExportFormat,
  ScienceExportTable,
  ScienceLevelProgress,
} from '../../../../shared/science';
import { fillPath } from '../../api/request';
import { hashWithView } from '../../components/globe/viewLink';
import { CAMERA_DEFAULTS } from '../../../globe/camera';

const DEGREE = Math.PI / 180;

/**
 * The field of view (degrees) a disputed target's link opens at: about three arcminutes, where
 * the galaxy fills the middle of the screen as it does when a volunteer answers it.
 */
export const TARGET_VIEW_FOV = 0.05;

/** The width of a confidence bin: the summary's bins start at 0.5, 0.55, …, 0.95. */
export const CONFIDENCE_BIN_WIDTH = 0.05;

/** The main screen's route looking at (ra, dec) in degrees, as README's "Links to a view". */
export function targetViewPath({ ra, dec }: { ra: number; dec: number }): string {
  const hash = hashWithView('#/', {
    phi: ra * DEGREE,
    theta: (90 - dec) * DEGREE,
    fovy: TARGET_VIEW_FOV * DEGREE,
    roll: 0,
    mode: CAMERA_DEFAULTS.mode,
  });
  return hash.slice(1);
}

/** The address of a course's catalogue download (GET /api/admin/courses/{course_id}/export). */
export function exportPath(
  courseId: string,
  format: ScienceExportFormat,
  table: ScienceExportTable = 'catalogue',
): string {
  const { path } = fillPath('/api/admin/courses/{course_id}/export', { course_id: courseId });
  const query: Record<string, string> = table === 'catalogue' ? { format } : { format, table };
  return `${path}?${new URLSearchParams(query).toString()}`;
}

/**
 * A level's name in `locale`, or in English, or its key; `lang` says which language the text is
 * in when it is not the page's, so that a fallback is marked as such.
 */
export function levelName(level: ScienceLevelProgress, locale: Locale): { text: string; lang?: string } {
  const own = level.name[locale];
  if (own) return { text: own };
  if (level.name.en) return { text: level.name.en, lang: 'en' };
  return { text: level.key, lang: 'en' };
}

/** A day of the summary (YYYY-MM-DD in the server's time zone) as a local midnight. */
export function dayDate(day: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year, month - 1, date);
}

export interface DailyRow {
  date: Date;
  answers: number;
  volunteers: number;
}

export function dailyRows(days: readonly ScienceDay[]): DailyRow[] {
  return days.map((day) => ({ date: dayDate(day.day), answers: day.answers, volunteers: day.volunteers }));
}

export interface ConfidenceRow {
  course: string;
  from: number;
  to: number;
  targets: number;
}

/**
 * Each bin with both edges, its course named by `courseName`; the courses in the order of
 * `courseOrder`, courses without a target in any bin left out.
 */
export function confidenceRows(
  bins: readonly ScienceConfidenceBin[],
  courseOrder: readonly string[],
  courseName: (courseId: string) => string,
): ConfidenceRow[] {
  const withTargets = new Set(bins.filter((bin) => bin.targets > 0).map((bin) => bin.course_id));
  return courseOrder
    .filter((courseId) => withTargets.has(courseId))
    .flatMap((courseId) =>
      bins
        .filter((bin) => bin.course_id === courseId)
        .sort((a, b) => a.lower - b.lower)
        .map((bin) => ({
          course: courseName(courseId),
          from: bin.lower,
          // Rounded to the grid's millionths: 0.55 + 0.05 is 0.6000000000000001 in binary.
          to: Math.min(1, Math.round((bin.lower + CONFIDENCE_BIN_WIDTH) * 1e6) / 1e6),
          targets: bin.targets,
        })),
    );
}

export type AccuracySeries = 'crowd' | 'volunteer';

export interface AccuracyRow {
  course: string;
  votes: number;
  /** The course's last point, which holds `votes` and more. */
  orMore: boolean;
  series: AccuracySeries;
  accuracy: number;
  targets: number;
}

/**
 * Two rows per point, the crowd's and the single volunteer's accuracy, for two lines per course
 * (in the order of `courseOrder`); points without targets carry no accuracy and are left out.
 */
export function accuracyRows(
  points: readonly ScienceAccuracyPoint[],
  courseOrder: readonly string[],
  courseName: (courseId: string) => string,
): AccuracyRow[] {
  return courseOrder.flatMap((courseId) => {
    const own = points
      .filter((point) => point.course_id === courseId && point.targets > 0)
      .sort((a, b) => a.votes - b.votes);
    const last = Math.max(...points.filter((point) => point.course_id === courseId).map((point) => point.votes));
    return own.flatMap((point) =>
      (['crowd', 'volunteer'] as const).map((series) => ({
        course: courseName(courseId),
        votes: point.votes,
        orMore: point.votes === last,
        series,
        accuracy: series === 'crowd' ? point.crowd_accuracy : point.volunteer_accuracy,
        targets: point.targets,
      })),
    );
  });
}

/** part / whole, 0 when there is no whole. */
export function share(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}
