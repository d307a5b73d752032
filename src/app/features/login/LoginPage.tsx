// The login screen (application-spec §2): intro, e-mail, password, forgot-password link, free
// sign-up, the season-1 note, contact and credits links, language selector and an error line.
// POST /api/session; 422 shows 'E-mail or password is incorrect.'
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { SessionResponse } from '../../../shared/api';
import { RequestError, request } from '../../api/request';
import { sessionQueryKey } from '../../api/session';
import { LanguageSwitch } from '../../components/LanguageSwitch';

export function LoginPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => request<SessionResponse>('post', '/api/session', { email, password }),
    onSuccess: async (session) => {
      // application-spec §4: store the session, switch to the user's language, fetch the session
      // again. The session query has no observer on this screen, so the refetch is asked for
      // explicitly ('all'); otherwise the gate would first see the visitor's cached null session.
      queryClient.setQueryData(sessionQueryKey, session);
      if (session.current_user) await i18n.changeLanguage(session.current_user.locale);
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey, refetchType: 'all' });
      const origin = (location.state as { from?: { pathname: string; search: string } } | null)?.from;
      const from = origin ? `${origin.pathname}${origin.search}` : '/';
      navigate(session.recommended_course ? `/?course=${session.recommended_course}` : from, { replace: true });
    },
  });
  const unauthorized = login.error instanceof RequestError && login.error.status === 422;

  function submit(event: FormEvent) {
    event.preventDefault();
    login.mutate();
  }

  return (
    <main className="login-page">
      <form className="login-card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">{t('common.appName')}</h1>
        <p className="intro">{t('login.intro')}</p>
        <label>
          {t('login.email')}
          <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          {t('login.password')}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {unauthorized && (
          <p className="form-error" role="alert">
            {t('login.unauthorized')}
          </p>
        )}
        <button type="submit" disabled={login.isPending}>
          {t('login.submit')}
        </button>
        <p className="season1">{t('login.season1Note')}</p>
        <LanguageSwitch />
      </form>
    </main>
  );
}
