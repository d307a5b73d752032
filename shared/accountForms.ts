// The account forms' own rules of application-spec §5, on top of validation.ts: the
// set-password form (the repeat must match, the current password is required when updating)
// and the questionnaire's choices with an 'other' free text. The server checks what these
// forms send again with validation.ts.
import { MESSAGES, passwordErrors, type ValidationErrors } from './validation';

export interface PasswordForm {
  current_password: string;
  password: string;
  password_confirmation: string;
}

/** §5 password: 8 to 128 characters, the repeat matches, the current one given when updating. */
export function passwordFormErrors(form: PasswordForm, updating: boolean): ValidationErrors {
  const errors: ValidationErrors = {};
  if (updating && form.current_password === '') errors.current_password = [MESSAGES.blank];
  const password = passwordErrors(form.password);
  if (password.length > 0) errors.password = password;
  if (form.password_confirmation === '') errors.password_confirmation = [MESSAGES.blank];
  else if (form.password_confirmation !== form.password) errors.password_confirmation = [MESSAGES.mismatch];
  return errors;
}

/** The choice that asks for a free text. */
export const OTHER_CHOICE = 'other';

/** How an 'other' answer is sent: the marker and the volunteer's text. */
export function otherAnswer(text: string): string {
  return `${OTHER_CHOICE}: ${text.trim()}`;
}

/** §5: at least one choice (or the one choice) is needed; 'other' needs a non-blank text. */
export function choiceErrors(choices: readonly string[], otherText: string): string[] {
  if (choices.length === 0) return [MESSAGES.blank];
  if (choices.includes(OTHER_CHOICE) && otherText.trim() === '') return [MESSAGES.blank];
  return [];
}

/** §5 birth year: digits with optional surrounding spaces. */
export function isDigits(text: string): boolean {
  return /^\s*\d+\s*$/.test(text);
}
