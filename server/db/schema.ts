// Kysely table types. Columns mirror the migrations in ./migrations; int8 columns are numbers
// here because ./database.ts parses them once for both drivers.
import type { ColumnType, Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  email: string;
  nickname: string;
  locale: string;
  password_hash: string | null;
  admin: Generated<boolean>;
  gravatar_private: Generated<boolean>;
  gravatar_public: Generated<boolean>;
  created_at: ColumnType<Date, never, never>;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token: a database leak does not leak live sessions. */
  token_hash: string;
  user_id: number;
  created_at: ColumnType<Date, never, never>;
  expires_at: Date;
}

/** Locale → text ({"en": ..., "ja": ...}); written as a JSON string, read back as an object. */
export type LocaleTextColumn = ColumnType<Record<string, string>, string, string>;

export interface NotificationsTable {
  id: Generated<number>;
  /** NULL: for everyone; set: personal to that user (level_unlocked). */
  user_id: number | null;
  type: 'campaign_start' | 'captain_message' | 'level_unlocked' | 'no_group';
  title: LocaleTextColumn;
  message: LocaleTextColumn;
  html: Generated<boolean>;
  locale_fallback: Generated<boolean>;
  custom_component: string | null;
  valid_after: Date | null;
  valid_before: Date | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface NotificationReadsTable {
  notification_id: number;
  user_id: number;
  read_at: ColumnType<Date, never, never>;
}

export interface PresentApplicationsTable {
  user_id: number;
  name: string;
  country_code: number;
  zip_code: string;
  address1: string;
  address2: string;
  address3: string;
  message: string;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

/** One-time sign-up and password-reset links (0002_accounts_security). */
export interface EmailTokensTable {
  /** SHA-256 of the token in the link. */
  token_hash: string;
  purpose: 'signup' | 'password_reset';
  email: string;
  user_id: number | null;
  locale: string;
  created_at: ColumnType<Date, never, never>;
  expires_at: Date;
  used_at: Date | null;
}

/** The welcome questionnaire (application-spec §3, private information). */
export interface PrivateInformationsTable {
  user_id: number;
  birth_year: number;
  country_code: number;
  gender: 'man' | 'woman' | 'other';
  reasons_for_participation: string[];
  relation_to_astronomy: number;
  time_spent_in_astronomy: number;
  way_to_know_this_site: string;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** Rate-limit counters shared by every server process (server/plugins/rate-limit-store.ts). */
export interface RateLimitsTable {
  key: string;
  count: number;
  expires_at: Date;
}

/** JSON written as a string (pg would turn a JS array into a Postgres array), read back parsed. */
export type JsonColumn<T> = ColumnType<T, string, string>;

export interface CatalogueStateTable {
  id: number;
  digest: string;
  seeded_at: ColumnType<Date, never, Date>;
}

export interface CoursesTable {
  id: string;
  position: number;
  /** Dawid–Skene class priors, P(spiral) and P(interaction yes), re-estimated with the weights (0009). */
  spiral_prior: Generated<number>;
  interaction_prior: Generated<number>;
  /** The retirement rule (docs/science.md); all null: never retired. */
  retire_min_volunteers: ColumnType<number | null, number | null | undefined, number | null>;
  retire_min_confidence: ColumnType<number | null, number | null | undefined, number | null>;
  retire_max_volunteers: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface LevelsTable {
  id: number;
  course_id: string;
  position: number;
  key: string;
  name_key: string;
  name: JsonColumn<Record<string, string>>;
  type: 'regular' | 'greed' | 'tunnel_effect';
  depth: 'wide' | 'dud' | 'simulation';
  survey: string;
  labels: JsonColumn<unknown[]>;
  retired: Generated<boolean>;
}

export interface AreasTable {
  id: number;
  level_id: number;
  position: number;
  outlines: JsonColumn<[number, number][][]>;
  center_ra: number;
  center_dec: number;
  retired: Generated<boolean>;
}

export interface TargetsTable {
  object_id: number;
  area_id: number;
  position: number;
  ra: number;
  dec: number;
  galaxy_type: string;
  interaction: string;
  ring: boolean;
  fan: boolean;
  tail: boolean;
  distorted: boolean;
  captain_note: JsonColumn<unknown> | null;
  retired: Generated<boolean>;
}

export interface CampaignsTable {
  id: number;
  name: JsonColumn<Record<string, string>>;
  period_begin: Date;
  period_end: Date;
  medals: JsonColumn<{ count: number; image: string; notch: number; messages: Record<string, string> }[]>;
  /** The count at the last seeding; the live count is the sequence campaign_answers_<id> (0005). */
  answers_count: Generated<number>;
  retired: Generated<boolean>;
}

export interface QuestsTable {
  id: Generated<number>;
  user_id: number | null;
  course_id: string;
  level_id: number;
  area_id: number;
  type: 'regular' | 'greed' | 'tunnel_effect';
  created_at: ColumnType<Date, never, never>;
  finished_at: Date | null;
  /** Answers posted to the quest (0005_answer_path): how an answer sees a concurrent one. */
  answer_posts: Generated<number>;
}

export interface AnswersTable {
  id: Generated<number>;
  user_id: number | null;
  quest_id: number | null;
  object_id: number;
  course_id: string;
  galaxy_type: 'elliptical' | 'spiral' | 'not_sure';
  interaction: 'yes' | 'no' | 'not_sure';
  ring: boolean;
  fan: boolean;
  tail: boolean;
  distorted: boolean;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

/** A volunteer's answers in a course, kept by a trigger on answers (migration 0006). */
export interface CourseAnswerCountsTable {
  user_id: number;
  course_id: string;
  answers_count: number;
}

/** Answers per course, ranking period and volunteer, kept by a trigger on answers (migration 0007). */
export interface RankingCountsTable {
  course_id: string;
  period: 'hour' | 'day' | 'week' | 'month';
  period_start: Date;
  user_id: number;
  answers_count: number;
  /** created_at of the latest answer counted: when the volunteer reached answers_count. */
  reached_at: Date;
}

/** The time zone of ranking_counts' period starts (one row). */
export interface RankingTimeZoneTable {
  id: number;
  time_zone: string;
}

/** Per target of a course: answers counted and weighted, and their Dawid–Skene evidence (0009). */
export interface TargetConsensusTable {
  object_id: number;
  course_id: string;
  volunteers: number;
  n_spiral: number;
  n_elliptical: number;
  n_type_not_sure: number;
  n_interaction_yes: number;
  n_interaction_no: number;
  n_interaction_not_sure: number;
  n_ring: number;
  n_fan: number;
  n_tail: number;
  n_distorted: number;
  w_spiral: number;
  w_elliptical: number;
  w_type_not_sure: number;
  w_interaction_yes: number;
  w_interaction_no: number;
  w_interaction_not_sure: number;
  w_ring: number;
  w_fan: number;
  w_tail: number;
  w_distorted: number;
  /** Σ log-likelihood ratio of spiral over elliptical of the target's answers. */
  galaxy_type_evidence: number;
  /** Σ log-likelihood ratio of interacting over not. */
  interaction_evidence: number;
  retired_at: Date | null;
  updated_at: Generated<Date>;
}

/** A volunteer's estimated confusion of each binary question (Dawid & Skene 1979; 0009). */
export interface VolunteerReliabilityTable {
  user_id: number;
  galaxy_type_sensitivity: number;
  galaxy_type_specificity: number;
  interaction_sensitivity: number;
  interaction_specificity: number;
  galaxy_type_answers: number;
  interaction_answers: number;
  estimated_at: Generated<Date>;
}

export interface ScienceStateTable {
  id: number;
  estimated_at: Date | null;
  answers_at_estimate: number;
  iterations: number;
}

export interface ScienceDirtyTable {
  object_id: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  catalogue_state: CatalogueStateTable;
  courses: CoursesTable;
  levels: LevelsTable;
  areas: AreasTable;
  targets: TargetsTable;
  campaigns: CampaignsTable;
  quests: QuestsTable;
  answers: AnswersTable;
  course_answer_counts: CourseAnswerCountsTable;
  ranking_counts: RankingCountsTable;
  ranking_time_zone: RankingTimeZoneTable;
  email_tokens: EmailTokensTable;
  private_informations: PrivateInformationsTable;
  rate_limits: RateLimitsTable;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
  present_applications: PresentApplicationsTable;
  target_consensus: TargetConsensusTable;
  volunteer_reliability: VolunteerReliabilityTable;
  science_state: ScienceStateTable;
  science_dirty: ScienceDirtyTable;
}
