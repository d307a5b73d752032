// The present202501 gift campaign rules (application-spec §5 "Gift form", §8, §9), free of HTTP:
// the gift form checks them before sending, and the server again on every application.
import type { PresentApplication } from './api';
import { isCountryCode, MESSAGES } from './validation';

export const notEnoughGalaxies = (required: number) =>
  `You do not meet the application requirements (you haven't classified ${required} galaxies)`;
/** The form's own summary line (§8), reused as the message of a 400 with field errors. */
export const FIELDS_NOT_FILLED = 'There are fields that have not been filled in.';

/** Longest accepted text per field: generous for any postal address, bounded for the database. */
export const PRESENT_LIMITS = {
  name: 100,
  zip_code: 20,
  address1: 200,
  address2: 200,
  address3: 200,
  message: 1000,
} as const;

const REQUIRED_TEXT = ['name', 'zip_code', 'address1'] as const;
const OPTIONAL_TEXT = ['address2', 'address3', 'message'] as const;

/** As it arrives: any field may be missing or null; types are already checked by the schema. */
export type PresentInput = Partial<Record<keyof PresentApplication, string | number | null>>;

export type FieldErrors = Partial<Record<keyof PresentApplication, string[]>>;

/**
 * Validates an application and returns it trimmed, or the errors per field. address2 is treated
 * as optional: the spec notes that the form's address2 rule re-tests address1, which reads as a
 * defect, so the server checks address1 once and leaves address2 optional.
 */
export function validatePresentApplication(
  input: PresentInput,
): { ok: true; application: PresentApplication } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const text = (field: keyof typeof PRESENT_LIMITS, required: boolean): string => {
    const raw = input[field];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (required && value === '') errors[field] = [MESSAGES.blank];
    else if (value.length > PRESENT_LIMITS[field]) errors[field] = [MESSAGES.tooLong(PRESENT_LIMITS[field])];
    return value;
  };
  const values: Record<string, string> = {};
  for (const field of REQUIRED_TEXT) values[field] = text(field, true);
  for (const field of OPTIONAL_TEXT) values[field] = text(field, false);
  const country = input.country_code;
  // A numeric country code of the country table: ISO 3166-1 numeric (Japan 392), or -1 for 'other'.
  if (country === null || country === undefined || country === '') errors.country_code = [MESSAGES.blank];
  else if (!isCountryCode(country)) errors.country_code = [MESSAGES.invalidFormat];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    application: {
      name: values.name,
      country_code: country as number,
      zip_code: values.zip_code,
      address1: values.address1,
      address2: values.address2,
      address3: values.address3,
      message: values.message,
    },
  };
}

/** Applications are accepted from the opening to the deadline, both inclusive. */
export function isPresentOpen(window: { opensAt: Date; deadline: Date }, now: Date): boolean {
  return now >= window.opensAt && now <= window.deadline;
}
