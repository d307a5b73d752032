// The admin's edit dialog of a notification (application-spec §2, §5, §7): title and body as
// locale-to-text maps (rows with add and remove), the special-notification button, a preview per
// locale, type, HTML display, fall back to English, valid-from and valid-until pickers with clear
// buttons, a 4-row message area, cancel and save. Save is refused with an alert when falling back
// to English without an 'en' title. Resolves with the saved notification.
import { useMutation } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type AdminNotification, type Locale, type NotificationType } from '../../../../shared/api';
import { request } from '../../api/request';
import { ConfirmDialog, confirm } from '../../components/dialogs/ConfirmDialog';
import { DialogFrame, MessageDialog, useDialog, useDialogs } from '../../components/dialogs';
import { CUSTOM_COMPONENTS, NotificationBody } from '../../components/NotificationBody';
import {
  emptyForm,
  formOf,
  inputOf,
  nextLocale,
  previewFor,
  saveProblem,
  withCustomComponent,
  type LocaleRow,
  type NotificationForm,
} from './notificationForm';

/** The types the selector offers: captain message or other (§2); an existing one keeps its own. */
const TYPE_CHOICES: NotificationType[] = ['captain_message', 'no_group'];

function LocaleRows({
  legend,
  rows,
  onChange,
  multiline,
}: {
  legend: string;
  rows: LocaleRow[];
  onChange: (rows: LocaleRow[]) => void;
  multiline: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const next = nextLocale(rows);
  const set = (index: number, change: Partial<LocaleRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset className="locale-rows">
      <legend>{legend}</legend>
      {rows.map((row, index) => (
        <div className="locale-row" key={index}>
          <select
            aria-label={`${legend}: ${t('admin.edit.locale')}`}
            value={row.locale}
            onChange={(event) => set(index, { locale: event.target.value as Locale })}
          >
            {LOCALES.map((locale) => (
              <option
                key={locale}
                value={locale}
                disabled={locale !== row.locale && rows.some((other) => other.locale === locale)}
              >
                {locale}
              </option>
            ))}
          </select>
          {multiline ? (
            <textarea
              id={`${id}-${index}`}
              aria-label={`${legend} (${row.locale})`}
              rows={4}
              value={row.text}
              onChange={(event) => set(index, { text: event.target.value })}
            />
          ) : (
            <input
              id={`${id}-${index}`}
              aria-label={`${legend} (${row.locale})`}
              value={row.text}
              onChange={(event) => set(index, { text: event.target.value })}
            />
          )}
          <button
            type="button"
            className="button icon"
            aria-label={t('admin.edit.removeRow', { locale: row.locale })}
            title={t('admin.edit.removeRow', { locale: row.locale })}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button"
        disabled={next === null}
        onClick={() => next && onChange([...rows, { locale: next, text: '' }])}
      >
        {t('admin.edit.addRow')}
      </button>
    </fieldset>
  );
}

function DateTimeField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-with-button">
        <input id={id} type="datetime-local" value={value} onChange={(event) => onChange(event.target.value)} />
        <button
          type="button"
          className="button"
          disabled={value === ''}
          aria-label={t('admin.edit.clear', { field: label })}
          onClick={() => onChange('')}
        >
          <X size={16} aria-hidden="true" />
        </button>
      </div>
    </div>
  );
}

export function NotificationEditDialog({ notification }: { notification?: AdminNotification }) {
  const { t } = useTranslation();
  const dialog = useDialog<AdminNotification>();
  const dialogs = useDialogs();
  const typeId = useId();
  const componentId = useId();
  const [form, setForm] = useState<NotificationForm>(() => (notification ? formOf(notification) : emptyForm()));
  const [component, setComponent] = useState(form.custom_component ?? Object.keys(CUSTOM_COMPONENTS)[0]);
  const change = (patch: Partial<NotificationForm>) => setForm((old) => ({ ...old, ...patch }));
  const save = useMutation({
    mutationFn: () =>
      notification
        ? request<AdminNotification>('put', '/api/notifications/{id}', { ...inputOf(form), id: notification.id })
        : request<AdminNotification>('post', '/api/notifications', { ...inputOf(form) }),
    onSuccess: (saved) => dialog.resolve(saved),
    onError: () => dialog.shake(),
  });
  const types =
    notification && !TYPE_CHOICES.includes(notification.type) ? [notification.type, ...TYPE_CHOICES] : TYPE_CHOICES;

  async function special() {
    const replace = await confirm(
      dialogs,
      <ConfirmDialog title={t('admin.edit.special')} message={t('admin.edit.specialConfirm', { name: component })} />,
    );
    if (replace) setForm((old) => withCustomComponent(old, component));
  }

  async function submit() {
    const problem = saveProblem(form);
    if (problem) {
      dialog.shake();
      await dialogs.open(<MessageDialog title={t('admin.edit.alertTitle')} message={t(`admin.edit.${problem}`)} />);
      return;
    }
    save.mutate();
  }

  return (
    <DialogFrame
      title={notification ? t('admin.edit.editTitle', { id: notification.id }) : t('admin.edit.newTitle')}
      onSubmit={() => void submit()}
      actions={
        <>
          <button type="button" className="button" onClick={() => dialog.reject()}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button primary" disabled={save.isPending}>
            {t('common.save')}
          </button>
        </>
      }
    >
      <div className="notification-editor">
        <div className="notification-editor-fields">
          <LocaleRows
            legend={t('admin.edit.title')}
            rows={form.title}
            onChange={(title) => change({ title })}
            multiline={false}
          />
          <LocaleRows
            legend={t('admin.edit.body')}
            rows={form.message}
            onChange={(message) => change({ message })}
            multiline
          />
          <div className="field">
            <label htmlFor={componentId}>{t('admin.edit.component')}</label>
            <div className="input-with-button">
              <select id={componentId} value={component} onChange={(event) => setComponent(event.target.value)}>
                {Object.keys(CUSTOM_COMPONENTS).map((name) => (
                  <option key={name} value={name} translate="no">
                    {name}
                  </option>
                ))}
              </select>
              <button type="button" className="button" onClick={() => void special()}>
                {t('admin.edit.special')}
              </button>
            </div>
          </div>
          <div className="field">
            <label htmlFor={typeId}>{t('admin.edit.type')}</label>
            <select
              id={typeId}
              value={form.type}
              onChange={(event) => change({ type: event.target.value as NotificationType })}
            >
              {types.map((type) => (
                <option key={type} value={type}>
                  {t(`notifications.types.${type}`)}
                </option>
              ))}
            </select>
          </div>
          <label className="choice">
            <input type="checkbox" checked={form.html} onChange={(event) => change({ html: event.target.checked })} />
            {t('admin.edit.html')}
          </label>
          <label className="choice">
            <input
              type="checkbox"
              checked={form.locale_fallback}
              onChange={(event) => change({ locale_fallback: event.target.checked })}
            />
            {t('admin.edit.fallback')}
          </label>
          <DateTimeField
            label={t('admin.edit.validAfter')}
            value={form.valid_after}
            onChange={(valid_after) => change({ valid_after })}
          />
          <DateTimeField
            label={t('admin.edit.validBefore')}
            value={form.valid_before}
            onChange={(valid_before) => change({ valid_before })}
          />
        </div>
        <section className="notification-preview" aria-label={t('admin.edit.preview')}>
          <h3>{t('admin.edit.preview')}</h3>
          {LOCALES.map((locale) => {
            const shown = previewFor(form, locale);
            return (
              <article key={locale} className="preview-locale" data-testid={`preview-${locale}`}>
                <h4>{t(`common.languageNames.${locale}`)}</h4>
                {shown ? (
                  <div lang={shown.locale}>
                    <p className="preview-title">{shown.title}</p>
                    <NotificationBody
                      message={shown.message}
                      html={form.html}
                      customComponent={form.custom_component}
                    />
                  </div>
                ) : (
                  <p className="field-hint">{t('admin.edit.previewHidden')}</p>
                )}
              </article>
            );
          })}
        </section>
      </div>
    </DialogFrame>
  );
}
