// The welcome questionnaire (application-spec §2, §3 private information, §5, §9): birth year,
// country (the ISO 3166-1 table, Japan 392 first, 'other' -1 last), gender, relation to
// astronomy and time spent in it (1 to 4), how the volunteer learnt of the site and why they
// take part, each with an 'other' free text. Any error marks every field touched, shakes the
// dialog and sends nothing; a 422 shows the server's messages and shakes. Resolves once POST
// /api/current_user/private_information has saved the answers.
import { useMutation } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { choiceErrors, isDigits, OTHER_CHOICE, otherAnswer } from '../../../../shared/accountForms';
import type { ErrorResponse } from '../../../../shared/api';
import {
  GENDERS,
  privateInformationErrors,
  SCALE_MAX,
  SCALE_MIN,
  type Gender,
  type PrivateInformationInput,
} from '../../../../shared/validation';
import { RequestError, request } from '../../api/request';
import { ChoiceGroup } from '../../components/ChoiceGroup';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { TextField } from '../../components/Field';
import { FieldTooltip, useTouched } from '../../components/Tooltip';
import { currentLocale } from '../../i18n';
import { localizeMessages } from '../../i18n/messages';
import { countriesInOrder, OTHER_COUNTRY } from './countries';

export const WAYS_TO_KNOW = ['news', 'sns', 'search', 'friend', 'school', 'event', 'season1', OTHER_CHOICE] as const;
export const REASONS = ['astronomy', 'science', 'game', 'learning', 'images', OTHER_CHOICE] as const;
const SCALE = Array.from({ length: SCALE_MAX - SCALE_MIN + 1 }, (_, index) => String(SCALE_MIN + index));

type Field = keyof PrivateInformationInput | 'way_to_know_other' | 'reasons_other';

interface Form {
  birth_year: string;
  country_code: string;
  gender: string;
  relation_to_astronomy: string;
  time_spent_in_astronomy: string;
  way_to_know: string;
  way_to_know_other: string;
  reasons: string[];
  reasons_other: string;
}

const EMPTY: Form = {
  birth_year: '',
  country_code: '',
  gender: '',
  relation_to_astronomy: '',
  time_spent_in_astronomy: '',
  way_to_know: '',
  way_to_know_other: '',
  reasons: [],
  reasons_other: '',
};

/** application-spec §8: the birth year's message for characters other than digits. */
const ONLY_DIGITS = 'Only digits are allowed here';

/** The answers as the server takes them. */
export function questionnaireInput(form: Form): PrivateInformationInput {
  const number = (text: string) => (text === '' ? undefined : Number(text));
  return {
    birth_year: isDigits(form.birth_year) ? Number(form.birth_year.trim()) : form.birth_year,
    country_code: number(form.country_code),
    gender: (form.gender || undefined) as Gender | undefined,
    relation_to_astronomy: number(form.relation_to_astronomy),
    time_spent_in_astronomy: number(form.time_spent_in_astronomy),
    way_to_know_this_site:
      form.way_to_know === OTHER_CHOICE ? otherAnswer(form.way_to_know_other) : form.way_to_know || undefined,
    reasons_for_participation: form.reasons.map((reason) =>
      reason === OTHER_CHOICE ? otherAnswer(form.reasons_other) : reason,
    ),
  };
}

/** Field → messages (§5 and §8), in English as validation.ts gives them. */
export function questionnaireErrors(form: Form, now = new Date()): Partial<Record<Field, string[]>> {
  const errors: Partial<Record<Field, string[]>> = privateInformationErrors(questionnaireInput(form), now);
  // §8: a birth year with other characters than digits also says so.
  if (form.birth_year.trim() !== '' && !isDigits(form.birth_year))
    errors.birth_year = [...(errors.birth_year ?? []), ONLY_DIGITS];
  delete errors.way_to_know_this_site;
  delete errors.reasons_for_participation;
  const way = choiceErrors(form.way_to_know ? [form.way_to_know] : [], form.way_to_know_other);
  if (way.length > 0) errors[form.way_to_know === OTHER_CHOICE ? 'way_to_know_other' : 'way_to_know_this_site'] = way;
  const reasons = choiceErrors(form.reasons, form.reasons_other);
  if (reasons.length > 0) errors[form.reasons.length > 0 ? 'reasons_other' : 'reasons_for_participation'] = reasons;
  return errors;
}

export function QuestionnaireDialog() {
  const { t } = useTranslation();
  const dialog = useDialog();
  const touched = useTouched<Field>();
  const [form, setForm] = useState<Form>(EMPTY);
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string[]>>>({});
  const countryId = useId();
  const locale = currentLocale();
  const countries = useMemo(() => countriesInOrder(locale), [locale]);

  const save = useMutation({
    mutationFn: (input: PrivateInformationInput) =>
      request<void>('post', '/api/current_user/private_information', { ...input }),
    onSuccess: () => dialog.resolve(),
    onError: (error) => {
      if (error instanceof RequestError && error.status === 422)
        setServerErrors(((error.data as ErrorResponse | undefined)?.errors ?? {}) as Partial<Record<Field, string[]>>);
      dialog.shake();
    },
  });

  const errors = questionnaireErrors(form);
  const messages = (field: Field) =>
    [...(errors[field] ?? []), ...(serverErrors[field] ?? [])].map((message) =>
      message === ONLY_DIGITS ? t('validation.onlyDigits') : localizeMessages([message], t)[0],
    );
  const set = <K extends keyof Form>(field: K, value: Form[K]) => {
    setForm((old) => ({ ...old, [field]: value }));
    setServerErrors({});
  };

  function submit() {
    touched.touchAll();
    if (Object.keys(errors).length > 0) return dialog.shake();
    save.mutate(questionnaireInput(form));
  }

  const q = (key: string) => t(`gate.questionnaire.${key}`);
  const countryInvalid = touched.isTouched('country_code') && messages('country_code').length > 0;

  return (
    <DialogFrame
      title={q('title')}
      onSubmit={submit}
      actions={
        <button type="submit" className="button primary" disabled={save.isPending}>
          {q('submit')}
        </button>
      }
    >
      <p>{q('intro')}</p>
      <TextField
        label={q('birthYear')}
        inputMode="numeric"
        autoComplete="bday-year"
        size={6}
        autoFocus
        hint={q('birthYearHint')}
        value={form.birth_year}
        onChange={(value) => set('birth_year', value)}
        onBlur={() => touched.blur('birth_year')}
        errors={messages('birth_year')}
        touched={touched.isTouched('birth_year') || (form.birth_year !== '' && !isDigits(form.birth_year))}
      />
      <div className="field">
        <label htmlFor={countryId}>{q('country')}</label>
        <select
          id={countryId}
          value={form.country_code}
          onChange={(event) => set('country_code', event.target.value)}
          onBlur={() => touched.blur('country_code')}
          aria-invalid={countryInvalid || undefined}
          aria-describedby={countryInvalid ? `${countryId}-error` : undefined}
          autoComplete="country"
        >
          <option value="">{q('choose')}</option>
          {countries.map((country) => (
            <option key={country.numeric} value={country.numeric}>
              {country[locale]}
            </option>
          ))}
          <option value={OTHER_COUNTRY}>{q('otherCountry')}</option>
        </select>
        <FieldTooltip
          id={`${countryId}-error`}
          errors={messages('country_code')}
          show={touched.isTouched('country_code')}
        />
      </div>
      <ChoiceGroup
        legend={q('gender')}
        type="radio"
        name="gender"
        className="inline"
        options={GENDERS.map((gender) => ({ value: gender, label: q(`genders.${gender}`) }))}
        selected={[form.gender]}
        onChange={([gender]) => set('gender', gender)}
        onBlur={() => touched.blur('gender')}
        errors={messages('gender')}
        touched={touched.isTouched('gender')}
      />
      <ChoiceGroup
        legend={q('relation')}
        type="radio"
        name="relation_to_astronomy"
        options={SCALE.map((value) => ({ value, label: q(`relations.${value}`) }))}
        selected={[form.relation_to_astronomy]}
        onChange={([value]) => set('relation_to_astronomy', value)}
        onBlur={() => touched.blur('relation_to_astronomy')}
        errors={messages('relation_to_astronomy')}
        touched={touched.isTouched('relation_to_astronomy')}
      />
      <ChoiceGroup
        legend={q('timeSpent')}
        type="radio"
        name="time_spent_in_astronomy"
        options={SCALE.map((value) => ({ value, label: q(`timesSpent.${value}`) }))}
        selected={[form.time_spent_in_astronomy]}
        onChange={([value]) => set('time_spent_in_astronomy', value)}
        onBlur={() => touched.blur('time_spent_in_astronomy')}
        errors={messages('time_spent_in_astronomy')}
        touched={touched.isTouched('time_spent_in_astronomy')}
      />
      <ChoiceGroup
        legend={q('wayToKnow')}
        type="radio"
        name="way_to_know_this_site"
        options={WAYS_TO_KNOW.map((value) => ({ value, label: q(`waysToKnow.${value}`) }))}
        selected={[form.way_to_know]}
        onChange={([value]) => set('way_to_know', value)}
        onBlur={() => touched.blur('way_to_know_this_site')}
        errors={messages('way_to_know_this_site')}
        touched={touched.isTouched('way_to_know_this_site')}
      >
        {form.way_to_know === OTHER_CHOICE && (
          <TextField
            label={q('otherText')}
            value={form.way_to_know_other}
            onChange={(value) => set('way_to_know_other', value)}
            onBlur={() => touched.blur('way_to_know_other')}
            errors={messages('way_to_know_other')}
            touched={touched.isTouched('way_to_know_other')}
          />
        )}
      </ChoiceGroup>
      <ChoiceGroup
        legend={q('reasons')}
        type="checkbox"
        name="reasons_for_participation"
        options={REASONS.map((value) => ({ value, label: q(`reasonChoices.${value}`) }))}
        selected={form.reasons}
        onChange={(values) => set('reasons', values)}
        onBlur={() => touched.blur('reasons_for_participation')}
        errors={messages('reasons_for_participation')}
        touched={touched.isTouched('reasons_for_participation')}
      >
        {form.reasons.includes(OTHER_CHOICE) && (
          <TextField
            label={q('otherText')}
            value={form.reasons_other}
            onChange={(value) => set('reasons_other', value)}
            onBlur={() => touched.blur('reasons_other')}
            errors={messages('reasons_other')}
            touched={touched.isTouched('reasons_other')}
          />
        )}
      </ChoiceGroup>
    </DialogFrame>
  );
}
