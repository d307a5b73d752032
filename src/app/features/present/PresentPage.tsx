// /present2025winter, the winter 2025 gift form (application-spec §2, §4, §5, §8): the classified
// count against the required minimum, name, the address in the order of the user's language as
// 3-row text areas, message, the privacy text and its box; apply, or update and cancel once
// applied; back. Outside the campaign's window (from the server) the page goes to /#. Invalid
// input marks every field and alerts 'There are fields that have not been filled in.'; a 422
// alerts that the requirements are not fulfilled, with the required count; other failures raise
// the §8 alert of the request helper.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import '../terms/textPage.css';
import type { PresentApplication, PresentStat } from '../../../../shared/api';
import { RequestError, request } from '../../api/request';
import { ConfirmDialog, confirm } from '../../components/dialogs/ConfirmDialog';
import { MessageDialog, useDialogs } from '../../components/dialogs';
import { useFlash } from '../../components/Flash';
import { useShake } from '../../components/shake';
import { Spinner } from '../../components/Spinner';
import { FieldTooltip, useTouched } from '../../components/Tooltip';
import { currentLocale } from '../../i18n';
import { localizeMessages } from '../../i18n/messages';
import { countriesInOrder, OTHER_COUNTRY } from '../gate/countries';
import {
  addressOrder,
  applicationOf,
  formFromStat,
  isWindowOpen,
  meetsRequirement,
  presentFormErrors,
  type PresentField,
  type PresentForm,
} from './presentForm';

export const presentStatQueryKey = ['present202501', 'stat'] as const;

/** One labelled control of the form with its validation tooltip. */
function FormField({
  field,
  label,
  errors,
  shown,
  kind,
  value,
  onChange,
  onBlur,
  autoComplete,
  options,
}: {
  field: PresentField;
  label: string;
  errors: string[];
  shown: boolean;
  kind: 'input' | 'textarea' | 'select' | 'checkbox';
  value: string | boolean;
  onChange: (value: string | boolean) => void;
  onBlur: () => void;
  autoComplete?: string;
  options?: ReactNode;
}) {
  const id = useId();
  const invalid = shown && errors.length > 0;
  const common = {
    id,
    onBlur,
    autoComplete,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? `${id}-error` : undefined,
  };
  let control: ReactNode;
  if (kind === 'textarea')
    control = <textarea {...common} rows={3} value={String(value)} onChange={(e) => onChange(e.target.value)} />;
  else if (kind === 'select')
    control = (
      <select {...common} value={String(value)} onChange={(e) => onChange(e.target.value)}>
        {options}
      </select>
    );
  else if (kind === 'checkbox')
    control = (
      <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
    );
  else control = <input {...common} value={String(value)} onChange={(e) => onChange(e.target.value)} />;
  return (
    <div className={`field field-${field}`}>
      <label htmlFor={id}>{label}</label>
      {control}
      <FieldTooltip id={`${id}-error`} errors={errors} show={shown} />
    </div>
  );
}

function PresentFormView({ stat }: { stat: PresentStat }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const dialogs = useDialogs();
  const flash = useFlash();
  const queryClient = useQueryClient();
  const touched = useTouched<PresentField>();
  const [shakeClass, shake] = useShake();
  const [form, setForm] = useState<PresentForm>(() => formFromStat(stat));
  const applied = !!stat.application;
  const errors = presentFormErrors(form);
  const messages = (field: PresentField) =>
    field === 'privacy' ? (errors.privacy ? [t('present.checkTheBox')] : []) : localizeMessages(errors[field], t);
  const set = (field: PresentField, value: string | boolean) => setForm((old) => ({ ...old, [field]: value }));
  const reload = () => queryClient.invalidateQueries({ queryKey: presentStatQueryKey });

  const apply = useMutation({
    mutationFn: () => request<PresentApplication>('post', '/api/present202501', applicationOf(form)),
    onSuccess: async () => {
      flash(applied ? t('present.sentUpdated') : t('present.sentApplied'));
      await reload();
    },
    onError: async (error) => {
      if (error instanceof RequestError && error.status === 422) {
        const required = (error.data as { required?: number } | undefined)?.required ?? stat.min_galaxies;
        await dialogs.open(
          <MessageDialog
            title={t('present.alertTitle')}
            message={t('present.requirementsNotFulfilled', { required })}
          />,
        );
      }
    },
  });
  const cancel = useMutation({
    mutationFn: () => request<void>('delete', '/api/present202501', {}),
    onSuccess: async () => {
      flash(t('present.sentCancelled'));
      setForm(formFromStat(undefined));
      await reload();
    },
  });

  async function submit() {
    touched.touchAll();
    if (Object.keys(errors).length > 0) {
      shake();
      await dialogs.open(<MessageDialog title={t('present.alertTitle')} message={t('present.notFilled')} />);
      return;
    }
    apply.mutate();
  }

  async function askCancel() {
    if (
      await confirm(
        dialogs,
        <ConfirmDialog title={t('present.cancelApplication')} message={t('present.cancelConfirm')} danger />,
      )
    )
      cancel.mutate();
  }

  const fieldProps = (field: PresentField, label: string) => ({
    field,
    label,
    errors: messages(field),
    shown: touched.isTouched(field),
    value: form[field],
    onChange: (value: string | boolean) => set(field, value),
    onBlur: () => touched.blur(field),
  });
  const addressFields = addressOrder(locale).map((field) =>
    field === 'country_code' ? (
      <FormField
        key={field}
        {...fieldProps(field, t('present.country'))}
        kind="select"
        autoComplete="country"
        options={
          <>
            <option value="">{t('present.chooseCountry')}</option>
            {countriesInOrder(locale).map((country) => (
              <option key={country.numeric} value={country.numeric}>
                {country[locale]}
              </option>
            ))}
            <option value={OTHER_COUNTRY}>{t('present.otherCountry')}</option>
          </>
        }
      />
    ) : field === 'zip_code' ? (
      <FormField key={field} {...fieldProps(field, t('present.zipCode'))} kind="input" autoComplete="postal-code" />
    ) : (
      <FormField key={field} {...fieldProps(field, t(`present.${field}`))} kind="textarea" />
    ),
  );

  return (
    <form
      className={`present-form ${shakeClass}`}
      noValidate
      onSubmit={(event) => (event.preventDefault(), void submit())}
    >
      {applied && <p className="present-applied">{t('present.applied')}</p>}
      <FormField {...fieldProps('name', t('present.name'))} kind="input" autoComplete="name" />
      {addressFields}
      <FormField {...fieldProps('message', t('present.message'))} kind="textarea" />
      <section className="present-privacy" aria-labelledby="present-privacy-title">
        <h2 id="present-privacy-title">{t('present.privacyTitle')}</h2>
        <p>{t('present.privacy')}</p>
        <FormField {...fieldProps('privacy', t('present.agree'))} kind="checkbox" />
      </section>
      <div className="present-actions">
        {applied ? (
          <>
            <button type="submit" className="button primary" disabled={apply.isPending}>
              {t('present.update')}
            </button>
            <button
              type="button"
              className="button danger"
              disabled={cancel.isPending}
              onClick={() => void askCancel()}
            >
              {t('present.cancelApplication')}
            </button>
          </>
        ) : (
          <button type="submit" className="button primary" disabled={apply.isPending}>
            {t('present.apply')}
          </button>
        )}
      </div>
    </form>
  );
}

export function PresentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locale = currentLocale();
  const stat = useQuery({
    queryKey: presentStatQueryKey,
    queryFn: ({ signal }) => request<PresentStat>('get', '/api/present202501/stat', undefined, { signal }),
  });
  if (stat.isPending) return <Spinner />;
  if (!stat.data) return null;
  if (!isWindowOpen(stat.data, new Date())) return <Navigate to="/" replace />;
  const { count, min_galaxies: required, deadline } = stat.data;
  const number = (value: number) => new Intl.NumberFormat(locale).format(value);
  const deadlineText = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(
    new Date(deadline),
  );
  return (
    <div className="page-center">
      <main className="panel present-page">
        <header className="present-header">
          <button type="button" className="button" onClick={() => void navigate('/')}>
            {t('common.back')}
          </button>
          <h1>{t('present.title')}</h1>
        </header>
        <p>{t('present.intro', { deadline: deadlineText })}</p>
        <p className="present-count" data-testid="present-count">
          {t('present.achieved', { count: number(count), required: number(required) })}
        </p>
        {!meetsRequirement(stat.data) && (
          <div className="form-error" role="alert">
            <p>{t('present.notMet', { required: number(required) })}</p>
            <p>{t('present.required', { required: number(required) })}</p>
          </div>
        )}
        {/* The form is remounted when the application changes (applied, updated, cancelled). */}
        <PresentFormView key={JSON.stringify(stat.data.application ?? null)} stat={stat.data} />
      </main>
    </div>
  );
}
