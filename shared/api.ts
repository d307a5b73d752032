// Request and response shapes of application-spec §3 and §7, shared by app and server.

export { LOCALES, type Locale } from './locale';
import type { Locale } from './locale';

export type { CourseId } from './enums';
import type { CourseId } from './enums';

/** current_user of GET /api/session (application-spec §3, Session). */
export interface CurrentUser {
  id: number;
  email: string;
  nickname: string;
  locale: Locale;
  password_is_set: boolean;
  private_information_present: boolean;
  gravatar_private: boolean;
  gravatar_public: boolean;
  avatar_url: string | null;
  admin: boolean;
}

/** GET /api/session. */
export interface SessionResponse {
  current_user: CurrentUser | null;
  recommended_course: CourseId | null;
}

// Notifications (captain messages), application-spec §3 Notification and §7.

export const NOTIFICATION_TYPES = ['campaign_start', 'captain_message', 'level_unlocked', 'no_group'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Locale → text. */
export type LocaleText = Partial<Record<Locale, string>>;

/** What every view of a stored notification carries (application-spec §3, Notification). */
interface NotificationFields {
  id: number;
  type: NotificationType;
  title: LocaleText;
  message: LocaleText;
  html: boolean;
  locale_fallback: boolean;
  custom_component: string | null;
  valid_after: string | null;
  valid_before: string | null;
  created_at: string;
}

/**
 * One entry of GET /api/notifications (and of the admin preview): the texts of one locale only,
 * keyed by that locale — the user's own, or 'en' when the notification falls back to English.
 */
export interface UserNotification extends NotificationFields {
  /** The locale of the texts served. */
  locale: Locale;
  read: boolean;
}

/** Body of POST /api/notifications and PUT /api/notifications/{id} (admin). */
export interface NotificationInput {
  id?: number;
  type: NotificationType;
  title: LocaleText;
  message: LocaleText;
  html?: boolean;
  locale_fallback?: boolean;
  custom_component?: string | null;
  valid_after?: string | null;
  valid_before?: string | null;
}

/** A notification as the admin screen edits it: every locale, and the personal owner if any. */
export interface AdminNotification extends NotificationFields {
  user_id: number | null;
  updated_at: string;
}

// The present202501 gift campaign (application-spec §2 gift screen, §3 Gift application, §7).

export interface PresentApplication {
  name: string;
  country_code: number;
  zip_code: string;
  address1: string;
  address2: string;
  address3: string;
  message: string;
}

/** GET /api/present202501/stat. `application` is absent when the user has not applied. */
export interface PresentStat {
  count: number;
  min_galaxies: number;
  application?: PresentApplication;
  opens_at: string;
  deadline: string;
}

// Accounts (application-spec §3 and §7): login, sign-up and reset mail, password, profile.

/** POST /api/session; answers a SessionResponse, 422 for invalid credentials. */
export interface LoginRequest {
  email: string;
  password: string;
}

/** POST /api/signup/verify_email: 204, or 409 when the address is registered. */
export interface SignupVerifyEmailRequest {
  email: string;
  locale: Locale;
}

/** POST /api/password_reset/verify_email: 204 whether or not the address is registered. */
export interface PasswordResetVerifyEmailRequest {
  email: string;
}

/**
 * The two mail links, each named as its routes are: the mail links to the app's page
 * #/{kind}/confirm?token=…, which asks before it acts (GET /api/{kind}/confirm?token=…, the
 * address of older mails, only redirects there).
 */
export type MailLinkKind = 'signup' | 'password_reset';

/** 'ready': the link acts once, when its page's button is pressed; the others say why it cannot. */
export type MailLinkState = 'ready' | 'used' | 'expired' | 'unknown';

/** Body of POST /api/{kind}/link and POST /api/{kind}/confirm: the token of the mail link. */
export interface MailLinkRequest {
  token: string;
}

/**
 * POST /api/{kind}/link: what the link would do, changing nothing. `email` is the address it
 * signs up or logs in (only while ready); `locale` the link's language (null when unknown).
 */
export interface MailLinkResponse {
  state: MailLinkState;
  email: string | null;
  locale: Locale | null;
}

/**
 * POST /api/{kind}/confirm uses the link: a SessionResponse with the new session's cookie, or
 * this 409 when the link cannot be used (used, expired or unknown by the time it was pressed).
 */
export interface MailLinkFailure extends ErrorResponse {
  state: Exclude<MailLinkState, 'ready'>;
  locale: Locale | null;
}

/** PUT /api/signup/password: 204; current_password is required once a password is set. */
export interface PasswordUpdateRequest {
  password: string;
  current_password?: string;
}

/** PUT /api/current_user (every field optional): answers CurrentUserResponse. */
export interface CurrentUserUpdateRequest {
  nickname?: string;
  locale?: Locale;
  gravatar_private?: boolean;
  gravatar_public?: boolean;
}

export interface CurrentUserResponse {
  current_user: CurrentUser;
}

/** POST /api/current_user/private_information: 204. */
export type { PrivateInformationInput as PrivateInformationRequest } from './validation';

/** GET /api/nicknames/{nickname}: users other than the caller with that nickname; 0 = free. */
export interface NicknameCountResponse {
  count: number;
}

/** Every error answer; `errors` (field → messages of §5) comes with a 422. */
export interface ErrorResponse {
  statusCode: number;
  error: string;
  message: string;
  errors?: Record<string, string[]>;
}

// The game (application-spec §3 and §7; ARCHITECTURE.md, the game model).

import type { GalaxyType, Interaction, LevelStatus, LevelType } from './enums';
import type { CaptainNote, Localized, MapLabel, Outline } from './catalogue';

/** GET /api/server_info: areas per course, then per group (a group is a level, by its key). */
export interface ServerInfoResponse {
  /** Keyed by course id: the five of application-spec and the imported courses (issue 30). */
  number_of_areas: Partial<Record<string, Record<string, number>>>;
}

export interface LevelSummary {
  id: number;
  course_id: CourseId;
  key: string;
  name_key: string;
  name: Localized;
  type: LevelType;
  depth: 'wide' | 'dud' | 'simulation';
  survey: string;
  labels: MapLabel[];
  status: LevelStatus;
  number_of_areas: number;
}

/** GET /api/levels?only_status=true: just what a level refresh needs. */
export type LevelStatusEntry = Pick<LevelSummary, 'id' | 'course_id' | 'key' | 'status'>;

/** GET /api/levels/{level_id}. */
export interface LevelDetail extends LevelSummary {
  areas: { id: number; outlines: Outline[] }[];
}

export interface Question {
  object_id: number;
  ra: number;
  dec: number;
  /** Training and review targets only: the captain's reference answer and comments. */
  captain_note?: CaptainNote;
}

/** Request body of POST /api/quests/{quest_id}/answers (defaults not_sure and false). */
export interface AnswerBody {
  object_id: number;
  galaxy_type?: GalaxyType;
  interaction?: Interaction;
  ring?: boolean;
  fan?: boolean;
  tail?: boolean;
  distorted?: boolean;
}

export type Answer = Required<AnswerBody>;

export interface Quest {
  id: number;
  course_id: CourseId;
  type: LevelType;
  level_id: number;
  level_name_key: string;
  area_id: number;
  level_key: string;
  /** ISO 8601. */
  created_at: string;
  finished_at: string | null;
  questions: Question[];
  answers: Answer[];
}

/**
 * GET /api/courses/{course_id}/quests/current. When the course is exhausted
 * (no_more_available_objects) there is no quest: its fields are null and the lists empty.
 */
export type CurrentQuestResponse =
  | (Quest & {
      depth: 'wide' | 'dud' | 'simulation';
      done_area_ids: number[];
      no_more_available_objects: false;
    })
  | ({ [K in keyof Quest]: K extends 'course_id' ? CourseId : K extends 'questions' | 'answers' ? [] : null } & {
      depth: null;
      done_area_ids: number[];
      no_more_available_objects: true;
    });

export interface QuestRecord {
  id: number;
  area_id: number;
  course_id: CourseId;
  level_key: string;
  created_at: string;
  finished_at: string | null;
}

/**
 * GET /api/my_record/{course_id}. answers_count: the volunteer's answers in the course (§3 User
 * stats' answers_count_per_course, one course a record), which the souvenirs and mypage show.
 */
export interface MyRecordResponse {
  course_id: CourseId;
  quests: QuestRecord[];
  answers_count: number;
}

/** GET /api/my_records: every course, keyed by course id. */
export type MyRecordsResponse = Record<CourseId, MyRecordResponse>;

export interface CampaignMedal {
  count: number;
  image: string;
  notch: number;
  messages: Localized;
}

/** One entry of GET /api/campaigns: count is every volunteer's answers in the window. */
export interface CampaignEntry {
  meta: {
    id: number;
    name: Localized;
    period_begin: string;
    period_end: string;
    medals: CampaignMedal[];
  };
  count: number;
}

/** POST /api/quests/{quest_id}/answers. answers_count: the user's answers in the quest's course. */
export interface NewRecordResponse {
  campaigns: CampaignEntry[];
  new_record: boolean;
  answers_count: number;
  /**
   * Beside application-spec's fields, only when there are any: the quest's targets its course's
   * retirement rule retired since the quest was created (docs/science.md, "Retirement"). They
   * have left the quest; the main screen drops those it has not answered, but the one on screen.
   */
  retired_object_ids?: number[];
}

export const RANKING_PERIODS = ['hour', 'day', 'week', 'month'] as const;
export type RankingPeriod = (typeof RANKING_PERIODS)[number];

/** One row of GET /api/courses/{course_id}/rankings/{period}; the spec's spelling 'public_avater'. */
export interface RankingEntry {
  id: number;
  nickname: string;
  count: number;
  public_avater: string | null;
}
