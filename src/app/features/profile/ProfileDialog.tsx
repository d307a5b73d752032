// The profile modal (application-spec §2, §5, §7, §8): use of Gravatar and its public display on
// the rankings (public only while use is on), the e-mail read only, nickname, language, change
// password (the set-password dialog with the current password; a wrong one says 'Current password
// does not match.') and delete account behind a confirmation (DELETE /api/current_user, then /).
// Save: PUT /api/current_user, the session fetched again and the language switched to the saved
// one; a failed save shakes the dialog.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LOCALES,
  type CurrentUser,
  type CurrentUserResponse,
  type ErrorResponse,
  type Locale,
} from '../../../../shared/api';
import { MESSAGES, nicknameErrors } from '../../../../shared/validation';
import { RequestError, request } from '../../api/request';
import { sessionQueryKey } from '../../api/session';
import { Avatar } from '../../components/Avatar';
import { DialogDismissed, DialogFrame, useDialog, useDialogs } from '../../components/dialogs';
import { TextField } from '../../components/Field';
import { useFlash } from '../../components/Flash';
import { localizeMessages } from '../../i18n/messages';
import { SetPasswordDialog } from '../gate/SetPasswordDialog';
import { setGravatarPublic, setGravatarUse } from './profileForm';
import { useDeleteAccount } from './useDeleteAccount';

export function ProfileDialog({ user }: { user: CurrentUser }) {
  const { t, i18n } = useTranslation();
  const dialog = useDialog();
  const dialogs = useDialogs();
  const flash = useFlash();
  const queryClient = useQueryClient();
  const languageId = useId();
  const [nickname, setNickname] = useState(user.nickname);
  const [locale, setLocale] = useState<Locale>(user.locale);
  const [gravatar, setGravatar] = useState({
    gravatar_private: user.gravatar_private,
    gravatar_public: user.gravatar_public,
  });
  const [touched, setTouched] = useState(false);
  const [taken, setTaken] = useState(false);
  const errors = nicknameErrors(nickname);

  const save = useMutation({
    mutationFn: () =>
      request<CurrentUserResponse>('put', '/api/current_user', { nickname: nickname.trim(), locale, ...gravatar }),
    onSuccess: async (saved) => {
      await i18n.changeLanguage(saved.current_user.locale);
      await queryClient.refetchQueries({ queryKey: sessionQueryKey });
      flash(t('profile.saved'));
      dialog.resolve();
    },
    onError: (error) => {
      const fields = error instanceof RequestError ? (error.data as ErrorResponse | undefined)?.errors : undefined;
      if (fields?.nickname?.includes(MESSAGES.taken)) setTaken(true);
      dialog.shake();
    },
  });
  const remove = useDeleteAccount(() => dialog.resolve());

  async function changePassword() {
    try {
      await dialogs.open(<SetPasswordDialog updating />);
      flash(t('profile.passwordChanged'));
    } catch (error) {
      if (!(error instanceof DialogDismissed)) throw error;
    }
  }

  function submit() {
    setTouched(true);
    if (errors.length > 0) return dialog.shake();
    save.mutate();
  }

  const nicknameMessages = [...localizeMessages(errors, t), ...(taken ? [t('profile.nicknameTaken')] : [])];
  return (
    <DialogFrame
      title={t('profile.title')}
      onSubmit={submit}
      actions={
        <>
          <button type="button" className="button" onClick={() => dialog.reject(new DialogDismissed())}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button primary" disabled={save.isPending}>
            {t('common.save')}
          </button>
        </>
      }
    >
      {user.avatar_url && gravatar.gravatar_private && (
        <Avatar src={user.avatar_url} alt={t('profile.avatar')} size={64} className="profile-avatar" />
      )}
      <label className="choice">
        <input
          type="checkbox"
          checked={gravatar.gravatar_private}
          onChange={(event) => setGravatar((old) => setGravatarUse(old, event.target.checked))}
        />
        {t('profile.gravatarPrivate')}
      </label>
      <p className="field-hint">{t('profile.gravatarPrivateHint')}</p>
      <label className="choice">
        <input
          type="checkbox"
          checked={gravatar.gravatar_public}
          disabled={!gravatar.gravatar_private}
          onChange={(event) => setGravatar((old) => setGravatarPublic(old, event.target.checked))}
        />
        {t('profile.gravatarPublic')}
      </label>
      <p className="field-hint">{t('profile.gravatarPublicHint')}</p>
      <TextField label={t('profile.email')} value={user.email} onChange={() => {}} readOnly touched={false} />
      <TextField
        label={t('profile.nickname')}
        value={nickname}
        autoFocus
        onChange={(value) => {
          setNickname(value);
          setTaken(false);
        }}
        onBlur={() => setTouched(true)}
        errors={nicknameMessages}
        touched={touched || taken}
      />
      <div className="field">
        <label htmlFor={languageId}>{t('profile.language')}</label>
        <select id={languageId} value={locale} onChange={(event) => setLocale(event.target.value as Locale)}>
          {LOCALES.map((option) => (
            <option key={option} value={option} lang={option}>
              {t(`common.languageNames.${option}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="profile-actions">
        <button type="button" className="button" onClick={() => void changePassword()}>
          {t('profile.changePassword')}
        </button>
        <button type="button" className="button danger" disabled={remove.isPending} onClick={() => void remove.ask()}>
          {t('profile.deleteAccount')}
        </button>
      </div>
    </DialogFrame>
  );
}
