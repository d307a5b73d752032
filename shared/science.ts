// The research dashboard's calls (docs/science.md), beside application-spec §7's: administrators
// only. GET /api/admin/science → ScienceSummary; GET /api/admin/courses/{course_id}/export?format=
// csv|fits|votable → the course's catalogue as a streamed download.

export const SCIENCE_EXPORT_FORMATS = ['csv', 'fits', 'votable'] as const;
export type ScienceExportFormat = (typeof SCIENCE_EXPORT_FORMATS)[number];
/** A course's tables: its catalogue, its raw answers, its volunteers' reliability (pseudonymous). */
export const SCIENCE_EXPORT_TABLES = ['catalogue', 'answers', 'volunteers'] as const;
export type ScienceExportTable = (typeof SCIENCE_EXPORT_TABLES)[number];

export interface ScienceLevelProgress {
  level_id: number;
  key: string;
  /** The level's name per locale, as the game shows it. */
  name: Record<string, string>;
  /**
   * A row of a course of more than PROGRESS_ROWS levels: the run of its levels (1-based, in
   * sailing order) whose figures the row sums; `level_id`, `key` and `name` are its first level's.
   */
  levels?: { first: number; last: number };
  targets: number;
  /** Targets with at least one answer. */
  answered: number;
  retired: number;
}

export interface ScienceCourseProgress {
  course_id: string;
  targets: number;
  answered: number;
  retired: number;
  answers: number;
  volunteers: number;
  /** The course's retirement rule; all null when it has none. */
  retirement: { min_volunteers: number | null; min_confidence: number | null; max_volunteers: number | null };
  levels: ScienceLevelProgress[];
}

export interface ScienceDay {
  /** YYYY-MM-DD in the server's TIME_ZONE. */
  day: string;
  answers: number;
  volunteers: number;
}

export interface ScienceConfidenceBin {
  course_id: string;
  /** The bin's lower edge: 0.5, 0.55, …, 0.95 (the galaxy_type consensus confidence). */
  lower: number;
  targets: number;
}

export interface ScienceAccuracyPoint {
  course_id: string;
  /** Volunteers per target (the last point holds this many and more). */
  votes: number;
  targets: number;
  /** Share of these targets whose consensus galaxy_type is the catalogue's truth. */
  crowd_accuracy: number;
  /** Share of these targets' single answers (spiral or elliptical) that are the truth. */
  volunteer_accuracy: number;
}

export interface ScienceVolunteer {
  user_id: number;
  nickname: string;
  answers: number;
  /** Share of the volunteer's spiral/elliptical answers that are the truth; null without any. */
  agreement: number | null;
  galaxy_type_sensitivity: number | null;
  galaxy_type_specificity: number | null;
}

export interface ScienceDisputedTarget {
  object_id: number;
  course_id: string;
  ra: number;
  dec: number;
  volunteers: number;
  /** The lesser of the two questions' consensus confidences: the closer to 0.5, the more disputed. */
  confidence: number;
  consensus_galaxy_type: string;
  consensus_interaction: string;
  /** Retired by the course's rule: volunteers are no longer sent to it. */
  retired: boolean;
}

/**
 * A target its course's rule had retired and an estimate opened again (its confidence fell below
 * the rule's once the volunteers' reliability was estimated anew): volunteers are sent to it again.
 */
export interface ScienceReopenedTarget {
  object_id: number;
  course_id: string;
  ra: number;
  dec: number;
  volunteers: number;
  /** The lesser of the two questions' consensus confidences now. */
  confidence: number;
  /** ISO 8601 times (UTC). */
  retired_at: string;
  reopened_at: string;
}

export interface ScienceSummary {
  courses: ScienceCourseProgress[];
  /** The last 30 days, oldest first, days without answers included. */
  days: ScienceDay[];
  confidence: ScienceConfidenceBin[];
  accuracy: ScienceAccuracyPoint[];
  /** The 50 volunteers with most answers. */
  volunteers: ScienceVolunteer[];
  /** The 20 most disputed targets with at least 3 volunteers, retired ones included. */
  disputed: ScienceDisputedTarget[];
  /** Up to 20 targets opened again since they were retired, the latest first (still open). */
  reopened: ScienceReopenedTarget[];
  /** When the volunteers' reliability was last estimated (ISO 8601, UTC); null before the first estimate. */
  estimated_at: string | null;
  /** The IANA time zone of the days above (the server's TIME_ZONE, as the rankings' days). */
  time_zone: string;
}
