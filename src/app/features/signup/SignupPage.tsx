// Sign-up by e-mail verification (application-spec §2, §4, §5, §8): language selector, e-mail
// input of size 36 and the send button. An address that misses the loose something@something
// pattern shakes the form and sends nothing; a 409 says the address is registered and keeps the
// visitor on the form; a success opens the verification-sent dialog, whose back button returns
// to /, and which closes if the route changes under it (the mail's link opened in this tab).
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { SignupVerifyEmailRequest } from '../../../../shared/api';
import { isEmailAddress, MESSAGES } from '../../../../shared/validation';
import { RequestError, request } from '../../api/request';
import { DialogDismissed, MessageDialog, useDialogs } from '../../components/dialogs';
import { TextField } from '../../components/Field';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { useShake } from '../../components/shake';
import { currentLocale } from '../../i18n';
import { localizeMessages } from '../../i18n/messages';

export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [shakeClass, shake] = useShake();
  const send = useMutation({
    mutationFn: (body: SignupVerifyEmailRequest) => request<void>('post', '/api/signup/verify_email', { ...body }),
    onSuccess: async (_, body) => {
      try {
        await dialogs.open(
          <MessageDialog
            title={t('signup.sentTitle')}
            message={t('signup.sent', { email: body.email })}
            button={t('common.back')}
          />,
          { dismissable: false },
        );
      } catch (error) {
        // The route changed under it (the mail's link opened in this tab): that page stays.
        if (error instanceof DialogDismissed) return;
        throw error;
      }
      navigate('/');
    },
  });
  const errors = isEmailAddress(email) ? [] : [MESSAGES.invalidFormat];
  const registered = send.error instanceof RequestError && send.error.status === 409;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (errors.length > 0) return shake();
    send.mutate({ email: email.trim(), locale: currentLocale() });
  }

  return (
    <main className="page-center">
      <form className={`panel form-card ${shakeClass}`} onSubmit={submit} noValidate aria-labelledby="signup-title">
        <h1 id="signup-title">{t('signup.title')}</h1>
        <p className="intro">{t('signup.intro')}</p>
        <LanguageSwitch />
        <TextField
          label={t('signup.email')}
          type="email"
          autoComplete="email"
          size={36}
          value={email}
          onChange={setEmail}
          errors={localizeMessages(errors, t)}
          touched={touched}
          onBlur={() => setTouched(email !== '')}
        />
        {registered && (
          <p className="form-error" role="alert">
            {t('signup.alreadyRegistered')}
          </p>
        )}
        <button type="submit" className="button primary" disabled={send.isPending}>
          {t('signup.send')}
        </button>
        <Link to="/login" className="link">
          {t('signup.haveAccount')}
        </Link>
      </form>
    </main>
  );
}
