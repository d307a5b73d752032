// The validation messages of application-spec §5 come from shared/validation.ts in English
// (the server sends the same texts); this turns one into the user's language.
import type { TFunction } from 'i18next';
import { MESSAGES } from '../../../shared/validation';

export function localizeMessage(message: string, t: TFunction): string {
  if (message === MESSAGES.blank) return t('validation.blank');
  if (message === MESSAGES.invalidFormat) return t('validation.invalidFormat');
  if (message === MESSAGES.mismatch) return t('validation.mismatch');
  if (message === MESSAGES.taken) return t('validation.taken');
  if (message === MESSAGES.tooCommon) return t('validation.tooCommon');
  const short = /^must be at least (\d+) characters$/.exec(message);
  if (short) return t('validation.tooShort', { min: Number(short[1]) });
  const long = /^is too long \(maximum is (\d+) characters\)$/.exec(message);
  if (long) return t('validation.tooLong', { max: Number(long[1]) });
  return message;
}

export function localizeMessages(messages: readonly string[] | undefined, t: TFunction): string[] {
  return (messages ?? []).map((message) => localizeMessage(message, t));
}
