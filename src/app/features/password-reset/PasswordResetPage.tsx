// Password reset (application-spec §2, §5, §8), shown as a modal over the login screen: a
// backdrop click or Escape goes back. An address that misses the loose pattern shakes the form
// and sends nothing; otherwise the server mails a link (it answers the same whether or not the
// address is registered) and the form gives way to the verification-sent confirmation.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, Heading } from 'react-aria-components';
import { useNavigate } from 'react-router-dom';
import { isEmailAddress, MESSAGES } from '../../../../shared/validation';
import { request } from '../../api/request';
import { ModalShell } from '../../components/dialogs';
import { TextField } from '../../components/Field';
import { useShake } from '../../components/shake';
import { localizeMessages } from '../../i18n/messages';
import { LoginPage } from '../login/LoginPage';

export function PasswordResetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [shakeClass, shake] = useShake();
  const send = useMutation({
    mutationFn: (address: string) => request<void>('post', '/api/password_reset/verify_email', { email: address }),
  });
  const errors = isEmailAddress(email) ? [] : [MESSAGES.invalidFormat];
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate('/login'));

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (errors.length > 0) return shake();
    send.mutate(email.trim());
  }

  return (
    <>
      <LoginPage />
      <ModalShell dismissable onDismiss={back} shaking={shakeClass !== ''}>
        <Dialog className="dialog">
          <Heading slot="title" className="dialog-title">
            {send.isSuccess ? t('passwordReset.sentTitle') : t('passwordReset.title')}
          </Heading>
          {send.isSuccess ? (
            <>
              <div className="dialog-body">
                <p>{t('passwordReset.sent', { email: send.variables })}</p>
              </div>
              <div className="dialog-actions">
                <button type="button" className="button primary" autoFocus onClick={back}>
                  {t('common.back')}
                </button>
              </div>
            </>
          ) : (
            <form onSubmit={submit} noValidate>
              <div className="dialog-body">
                <p>{t('passwordReset.intro')}</p>
                <TextField
                  label={t('passwordReset.email')}
                  type="email"
                  autoComplete="email"
                  autoFocus
                  size={36}
                  value={email}
                  onChange={setEmail}
                  errors={localizeMessages(errors, t)}
                  touched={touched}
                  onBlur={() => setTouched(email !== '')}
                />
              </div>
              <div className="dialog-actions">
                <button type="button" className="button" onClick={back}>
                  {t('common.cancel')}
                </button>
                <button type="submit" className="button primary" disabled={send.isPending}>
                  {t('passwordReset.send')}
                </button>
              </div>
            </form>
          )}
        </Dialog>
      </ModalShell>
    </>
  );
}
