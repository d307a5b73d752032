// The gift form's state and rules (application-spec §2, §5, §8): the application's own rules
// from shared/present.ts (the server checks the same), plus the two the form alone knows:
// the privacy box must be checked and the classified count must reach min_galaxies.
import type { Locale, PresentApplication, PresentStat } from '../../../../shared/api';
import { validatePresentApplication } from '../../../../shared/present';

export interface PresentForm {
  name: string;
  /** The select's value: '' until a country is chosen. */
  country_code: string;
  zip_code: string;
  address1: string;
  address2: string;
  address3: string;
  message: string;
  privacy: boolean;
}

export type PresentField = keyof PresentForm;

/** The address fields in the order of the user's language (§2). */
export function addressOrder(locale: Locale): PresentField[] {
  return locale === 'ja'
    ? ['country_code', 'zip_code', 'address1', 'address2', 'address3']
    : ['address1', 'address3', 'address2', 'zip_code', 'country_code'];
}

export function formFromStat(stat: PresentStat | undefined): PresentForm {
  const application = stat?.application;
  return {
    name: application?.name ?? '',
    country_code: application ? String(application.country_code) : '',
    zip_code: application?.zip_code ?? '',
    address1: application?.address1 ?? '',
    address2: application?.address2 ?? '',
    address3: application?.address3 ?? '',
    message: application?.message ?? '',
    // Whoever applied has agreed already.
    privacy: !!application,
  };
}

export function applicationOf(form: PresentForm): Partial<Record<keyof PresentApplication, string | number | null>> {
  return {
    name: form.name,
    country_code: form.country_code === '' ? null : Number(form.country_code),
    zip_code: form.zip_code,
    address1: form.address1,
    address2: form.address2,
    address3: form.address3,
    message: form.message,
  };
}

/** Field → messages: the shared rules' texts (§5) and 'privacy' → ['checkTheBox']. */
export function presentFormErrors(form: PresentForm): Partial<Record<PresentField, string[]>> {
  const checked = validatePresentApplication(applicationOf(form));
  const errors: Partial<Record<PresentField, string[]>> = checked.ok ? {} : { ...checked.errors };
  if (!form.privacy) errors.privacy = ['checkTheBox'];
  return errors;
}

export function meetsRequirement(stat: PresentStat): boolean {
  return stat.count >= stat.min_galaxies;
}

/** Whether applications are accepted at `now` (opening and deadline inclusive, as the server). */
export function isWindowOpen(stat: Pick<PresentStat, 'opens_at' | 'deadline'>, now: Date): boolean {
  return now >= new Date(stat.opens_at) && now <= new Date(stat.deadline);
}
