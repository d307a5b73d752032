// The set-password dialog (application-spec §2, §5, §8): current password (only when updating),
// new password and password again. Invalid input shakes the dialog and sends nothing; PUT
// /api/signup/password; a 422 for the current password says 'Current password does not match.'
// and shakes. Resolves once the password is saved. Used by the access gate (first password) and
// by the profile (updating={true}), where a Cancel button dismisses it; the gate's first password
// cannot be dismissed (application-spec §2), so it has none.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordFormErrors, type PasswordForm } from '../../../../shared/accountForms';
import type { ErrorResponse, PasswordUpdateRequest } from '../../../../shared/api';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../shared/validation';
import { RequestError, request } from '../../api/request';
import { DialogDismissed, DialogFrame, useDialog } from '../../components/dialogs';
import { TextField } from '../../components/Field';
import { useTouched } from '../../components/Tooltip';
import { localizeMessages } from '../../i18n/messages';

type Field = keyof PasswordForm;

export function SetPasswordDialog({ updating = false }: { updating?: boolean }) {
  const { t } = useTranslation();
  const dialog = useDialog();
  const touched = useTouched<Field>();
  const [form, setForm] = useState<PasswordForm>({ current_password: '', password: '', password_confirmation: '' });
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string[]>>>({});
  const save = useMutation({
    mutationFn: (body: PasswordUpdateRequest) => request<void>('put', '/api/signup/password', { ...body }),
    onSuccess: () => dialog.resolve(),
    onError: (error) => {
      if (error instanceof RequestError && error.status === 422)
        setServerErrors(((error.data as ErrorResponse | undefined)?.errors ?? {}) as Partial<Record<Field, string[]>>);
      dialog.shake();
    },
  });
  const errors = passwordFormErrors(form, updating);
  const currentMismatch =
    save.error instanceof RequestError && save.error.status === 422 && !!serverErrors.current_password;
  const set = (field: Field) => (value: string) => {
    setForm((old) => ({ ...old, [field]: value }));
    setServerErrors((old) => ({ ...old, [field]: undefined }));
  };
  const messages = (field: Field) => localizeMessages([...(errors[field] ?? []), ...(serverErrors[field] ?? [])], t);

  function submit() {
    touched.touchAll();
    if (Object.keys(errors).length > 0) return dialog.shake();
    save.mutate({ password: form.password, ...(updating ? { current_password: form.current_password } : {}) });
  }

  return (
    <DialogFrame
      title={t('gate.password.title')}
      onSubmit={submit}
      actions={
        <>
          {updating && (
            <button type="button" className="button" onClick={() => dialog.reject(new DialogDismissed())}>
              {t('common.cancel')}
            </button>
          )}
          <button type="submit" className="button primary" disabled={save.isPending}>
            {t('gate.password.save')}
          </button>
        </>
      }
    >
      <p>{t('gate.password.intro', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}</p>
      {updating && (
        <TextField
          label={t('gate.password.current')}
          type="password"
          autoComplete="current-password"
          autoFocus
          value={form.current_password}
          onChange={set('current_password')}
          onBlur={() => touched.blur('current_password')}
          errors={messages('current_password')}
          touched={touched.isTouched('current_password')}
        />
      )}
      <TextField
        label={t('gate.password.new')}
        type="password"
        autoComplete="new-password"
        autoFocus={!updating}
        value={form.password}
        onChange={set('password')}
        onBlur={() => touched.blur('password')}
        errors={messages('password')}
        touched={touched.isTouched('password')}
      />
      <TextField
        label={t('gate.password.again')}
        type="password"
        autoComplete="new-password"
        value={form.password_confirmation}
        onChange={set('password_confirmation')}
        onBlur={() => touched.blur('password_confirmation')}
        errors={messages('password_confirmation')}
        touched={touched.isTouched('password_confirmation')}
      />
      {currentMismatch && (
        <p className="form-error" role="alert">
          {t('gate.password.currentMismatch')}
        </p>
      )}
    </DialogFrame>
  );
}
