// Validation rules of application-spec §5 with their messages, shared by the app's forms and
// the server, which checks them again (a request need not come from the app).

export const MESSAGES = {
  blank: 'Cannot be blank',
  invalidFormat: 'Invalid Format',
  tooShort: (min: number) => `must be at least ${min} characters`,
  tooLong: (max: number) => `is too long (maximum is ${max} characters)`,
  mismatch: 'does not match',
  taken: 'already taken',
  /** The server's check against common and easily guessed passwords (server/auth/password-strength.ts). */
  tooCommon: 'is too common or too easy to guess',
} as const;

/** application-spec §8: the alerts the app shows for these answers. */
export const ERROR_TEXTS = {
  invalidCredentials: 'E-mail or password is incorrect.',
  currentPasswordMismatch: 'Current password does not match.',
  alreadyRegistered: 'The email address has been already registered.',
  nicknameTaken: 'The nickname has already been taken',
  /** DELETE /api/current_user without a recent password (server/auth/sessions.ts RECENT_AUTHENTICATION_MS). */
  reauthenticationNeeded: 'Enter your password again to delete your account.',
} as const;

/** application-spec §9: password length 8 to 128. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
/** Not in the spec: long enough for any name, short enough for a ranking row. */
export const NICKNAME_MAX_LENGTH = 32;
/** RFC 5321's limit on a forward path. */
export const EMAIL_MAX_LENGTH = 254;
/** The country table's codes (application-spec §3): ISO 3166-1 numeric, three digits, or -1 for 'other'. */
export const COUNTRY_CODE_OTHER = -1;
export const COUNTRY_CODE_MAX = 999;
/** §9: scale answers 1 to 4. */
export const SCALE_MIN = 1;
export const SCALE_MAX = 4;
export const GENDERS = ['man', 'woman', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

/** Field name → messages; a field without errors is absent. */
export type ValidationErrors = Record<string, string[]>;

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Lengths count characters (code points), as a person counts them, not UTF-16 units. */
function length(text: string): number {
  return [...text].length;
}

/** §5: sign-up and reset addresses must match a loose something@something pattern (no control characters). */
export function isEmailAddress(text: string): boolean {
  return /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u.test(text.trim()) && text.trim().length <= EMAIL_MAX_LENGTH;
}

/**
 * Characters a nickname may not hold, as it is shown to others in public rankings: control
 * characters (C0, DEL, C1), lone surrogates (not text at all), line and paragraph separators, the
 * bidirectional controls (Unicode's Bidi_Control: embeddings, overrides, isolates and marks),
 * which would reorder the text around the name, and every other format or default-ignorable
 * character (zero-width space, word joiner, soft hyphen, Hangul fillers, tags…), which shows
 * nothing and would let a name imitate another. Zero-width joiners and non-joiners and the
 * variation selectors stay allowed, as emoji sequences and several scripts need them, but only
 * between two visible characters (NICKNAME_LOOSE_JOINER).
 */
const NICKNAME_FORBIDDEN =
  /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Bidi_Control}]|(?!\u200c|\u200d|\p{Variation_Selector})[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const NICKNAME_LOOSE_JOINER = /(?:^|[\s\u200c\u200d])[\u200c\u200d]|[\u200c\u200d](?:$|[\s\u200c\u200d])/u;
/** A character that shows something: neither white space nor default-ignorable (zero-width). */
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}]/u;

/**
 * A nickname as it is kept: NFKC-normalised (full-width Latin letters and digits, half-width
 * katakana and compatibility characters become their usual forms) and trimmed. The server
 * compares names for uniqueness on a further folded key (server/auth/nickname-key.ts).
 */
export function normalizeNickname(nickname: string): string {
  return nickname.normalize('NFKC').trim();
}

/** §5 password: 8 to 128 characters. */
export function passwordErrors(password: string | undefined): string[] {
  if (password === undefined || password === '') return [MESSAGES.blank];
  if (length(password) < PASSWORD_MIN_LENGTH) return [MESSAGES.tooShort(PASSWORD_MIN_LENGTH)];
  if (length(password) > PASSWORD_MAX_LENGTH) return [MESSAGES.tooLong(PASSWORD_MAX_LENGTH)];
  return [];
}

/**
 * §5 nickname: not blank, where a name of zero-width characters alone is blank too; no control,
 * bidirectional or invisible characters (NICKNAME_FORBIDDEN), counted as it is kept
 * (normalizeNickname). Uniqueness is the server's to check.
 */
export function nicknameErrors(nickname: string | undefined): string[] {
  if (isBlank(nickname) || !VISIBLE.test(nickname!)) return [MESSAGES.blank];
  const kept = normalizeNickname(nickname!);
  if (NICKNAME_FORBIDDEN.test(kept) || NICKNAME_LOOSE_JOINER.test(kept)) return [MESSAGES.invalidFormat];
  if (length(kept) > NICKNAME_MAX_LENGTH) return [MESSAGES.tooLong(NICKNAME_MAX_LENGTH)];
  return [];
}

/** A code of the country table: -1 ('other') or 1 to 999. */
export function isCountryCode(value: unknown): boolean {
  return (
    Number.isInteger(value) &&
    (value === COUNTRY_CODE_OTHER || ((value as number) >= 1 && (value as number) <= COUNTRY_CODE_MAX))
  );
}

/** The welcome questionnaire (application-spec §3 private information) as sent. */
export interface PrivateInformationInput {
  birth_year?: number | string;
  country_code?: number;
  gender?: Gender;
  reasons_for_participation?: string[];
  relation_to_astronomy?: number;
  time_spent_in_astronomy?: number;
  way_to_know_this_site?: string;
}

/**
 * Birth year: digits with optional surrounding spaces (§5), or a number; a year a living
 * volunteer can have been born in. NaN when it is not one.
 */
export function parseBirthYear(value: number | string, now = new Date()): number {
  const year = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value.trim()) : NaN;
  return Number.isInteger(year) && year >= 1900 && year <= now.getFullYear() ? year : NaN;
}

/**
 * §5 questionnaire rules: every question answered, the birth year in digits, a code of the
 * country table, scales 1 to 4.
 */
export function privateInformationErrors(input: PrivateInformationInput, now = new Date()): ValidationErrors {
  const errors: ValidationErrors = {};
  const add = (field: keyof PrivateInformationInput, message: string) => (errors[field] ??= []).push(message);
  if (isBlank(input.birth_year)) add('birth_year', MESSAGES.blank);
  else if (Number.isNaN(parseBirthYear(input.birth_year!, now))) add('birth_year', MESSAGES.invalidFormat);
  if (isBlank(input.country_code)) add('country_code', MESSAGES.blank);
  else if (!isCountryCode(input.country_code)) add('country_code', MESSAGES.invalidFormat);
  if (isBlank(input.gender)) add('gender', MESSAGES.blank);
  else if (!GENDERS.includes(input.gender!)) add('gender', MESSAGES.invalidFormat);
  const reasons = input.reasons_for_participation ?? [];
  if (reasons.length === 0 || reasons.some(isBlank)) add('reasons_for_participation', MESSAGES.blank);
  for (const field of ['relation_to_astronomy', 'time_spent_in_astronomy'] as const) {
    const value = input[field];
    if (isBlank(value)) add(field, MESSAGES.blank);
    else if (!Number.isInteger(value) || value! < SCALE_MIN || value! > SCALE_MAX) add(field, MESSAGES.invalidFormat);
  }
  if (isBlank(input.way_to_know_this_site)) add('way_to_know_this_site', MESSAGES.blank);
  return errors;
}
