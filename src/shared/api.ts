// Request and response shapes of application-spec §3 and §7, shared by app and server.

export type Locale = 'en' | 'ja';
export const LOCALES: readonly Locale[] = ['en', 'ja'];

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
