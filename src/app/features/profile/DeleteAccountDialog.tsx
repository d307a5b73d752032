// The confirmation of Delete account (application-spec §2, §7): the question, and for an account
// that has a password, the password again (OWASP ASVS 4.0.3 §3.7.1: the server deletes only for
// a session whose password was given in the last minutes). The password goes with the spec's own
// login call, POST /api/session (email, password), which stamps the session; then DELETE
// /api/current_user, as the spec has it, with no payload. Resolves true once the account is
// deleted, false on Cancel; a wrong password says so and shakes.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../../../../shared/api';
import { MESSAGES } from '../../../../shared/validation';
import { forgetLastSeen } from '../../api/lastSeen';
import { RequestError, request } from '../../api/request';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { TextField } from '../../components/Field';
import { localizeMessages } from '../../i18n/messages';

export function DeleteAccountDialog({ user }: { user: Pick<CurrentUser, 'email' | 'password_is_set'> }) {
  const { t } = useTranslation();
  const dialog = useDialog<boolean>();
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const remove = useMutation({
    mutationFn: async () => {
      if (user.password_is_set) await request('post', '/api/session', { email: user.email, password });
      await request<void>('delete', '/api/current_user');
      // The account is gone: so are its answers kept for the offline start.
      await forgetLastSeen();
    },
    onSuccess: () => dialog.resolve(true),
    onError: () => dialog.shake(),
  });
  const blank = user.password_is_set && password === '';
  const wrongPassword = remove.error instanceof RequestError && remove.error.status === 422;

  function submit() {
    setTouched(true);
    if (blank) return dialog.shake();
    remove.mutate();
  }

  return (
    <DialogFrame
      title={t('profile.deleteAccount')}
      role="alertdialog"
      onSubmit={submit}
      actions={
        <>
          <button
            type="button"
            className="button"
            autoFocus={!user.password_is_set}
            onClick={() => dialog.resolve(false)}
          >
            {t('common.cancel')}
          </button>
          <button type="submit" className="button danger" disabled={remove.isPending}>
            {t('profile.deleteAccount')}
          </button>
        </>
      }
    >
      <p>{t('profile.deleteConfirm')}</p>
      {user.password_is_set && (
        <TextField
          label={t('profile.deletePassword')}
          type="password"
          autoComplete="current-password"
          autoFocus
          value={password}
          onChange={(value) => {
            setPassword(value);
            remove.reset();
          }}
          onBlur={() => setTouched(true)}
          errors={blank ? localizeMessages([MESSAGES.blank], t) : []}
          touched={touched}
        />
      )}
      {wrongPassword && (
        <p className="form-error" role="alert">
          {t('profile.deleteWrongPassword')}
        </p>
      )}
    </DialogFrame>
  );
}
