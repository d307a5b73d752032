// The login screen (application-spec §2, §4, §8): intro, e-mail, password, forgot-password
// link, free sign-up button, the season 1 note, contact-form and credits links, language
// selector and the error line for wrong credentials, over the globe's idle camera tour.
// POST /api/session: success stores the session, switches to the user's language, fetches the
// session again and opens the recommended course (/?course=…, its quest already asked for, the
// camera cut to its first target once the quest is in, with the view of a deep link the visitor
// came from) or the page the visitor came from; 422 shows 'E-mail or password is incorrect.'
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { SessionResponse } from '../../../../shared/api';
import { RequestError, request } from '../../api/request';
import { takeSession } from '../../api/session';
import { useGlobe } from '../../components/globe/GlobeContext';
import { namesView, withLinkedView } from '../../components/globe/viewLink';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { TextField } from '../../components/Field';
import { currentLocale } from '../../i18n';
import { firstUnanswered, targetView } from '../../components/globe/targetViews';
import { prefetchQuest } from '../../api/quests';
import { gateStep } from '../gate/AccessGate';
import { unreadNotificationsQuery } from '../../api/notifications';
import { startCameraTour } from './cameraTour';

/** application-spec §9: season 1 ended 25 April 2022. */
const SEASON1_END = new Date(Date.UTC(2022, 3, 25));
/** The project's contact form (an external page). */
export const CONTACT_FORM_URL = 'https://hsc-galaxy-cruise.nao.ac.jp/contact/';

export function LoginPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const globe = useGlobe();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const tourElapsed = useRef(0);

  const login = useMutation({
    mutationFn: () => request<SessionResponse>('post', '/api/session', { email: email.trim(), password }),
    onSuccess: async (session) => {
      await takeSession(queryClient, i18n, session);
      const user = session.current_user;
      const origin = (location.state as { from?: { pathname: string; search: string } } | null)?.from;
      // The recommended course's quest is on its way while the main screen mounts; a volunteer
      // still facing a gate dialog has none to ask for yet. Once it is in, the camera cuts to the
      // target the main screen opens on, as the main screen would, so that its tiles load while
      // the screen mounts (unless a deep link's view is kept: the main screen opens on that).
      // So are the unread notifications the main screen opens with.
      if (user && gateStep(user) === null) void queryClient.prefetchQuery(unreadNotificationsQuery);
      if (session.recommended_course && user && gateStep(user) === null) {
        const quest = prefetchQuest(queryClient, session.recommended_course);
        if (!namesView(origin?.search ?? ''))
          void quest.then((data) => {
            const first = data && !data.no_more_available_objects ? firstUnanswered(data) : undefined;
            if (first) globe?.jumpTo(targetView(first), { duration: 0 });
          });
      }
      const from = origin ? `${origin.pathname}${origin.search}` : '/';
      // A deep link's view survives the recommended course: the course is chosen, the link's view kept.
      const to = session.recommended_course
        ? withLinkedView(`/?course=${session.recommended_course}`, origin?.search ?? '')
        : from;
      navigate(to, { replace: true });
    },
  });
  const unauthorized = login.error instanceof RequestError && login.error.status === 422;
  // The tour pauses from the click on 'Log in' (a frame of the globe is the costliest work a
  // low-end machine does here, and the main screen is on its way) and goes on if the login fails.
  const touring = !login.isPending && !login.isSuccess;
  useEffect(() => {
    if (!globe || !touring) return;
    const stop = startCameraTour(
      globe,
      window.matchMedia('(prefers-reduced-motion: reduce)').matches,
      tourElapsed.current,
    );
    return () => {
      tourElapsed.current = stop();
    };
  }, [globe, touring]);
  // The main screen's code is fetched once the visitor starts to fill in the form, while they type.
  const prefetchMainScreen = () => void import('../home/HomePage');
  const season1End = new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'long', timeZone: 'UTC' }).format(
    SEASON1_END,
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    login.mutate();
  }

  return (
    <main className="page-center login-page">
      <form
        className="panel form-card login-card"
        onSubmit={submit}
        onFocus={prefetchMainScreen}
        aria-labelledby="login-title"
      >
        <h1 id="login-title">{t('common.appName')}</h1>
        <p className="intro">{t('login.intro')}</p>
        <TextField
          label={t('login.email')}
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={setEmail}
          touched={false}
        />
        <TextField
          label={t('login.password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={setPassword}
          touched={false}
        />
        {unauthorized && (
          <p className="form-error" role="alert">
            {t('login.unauthorized')}
          </p>
        )}
        <button type="submit" className="button primary" disabled={login.isPending}>
          {t('login.submit')}
        </button>
        <Link to="/password_reset" className="link">
          {t('login.forgotPassword')}
        </Link>
        <div className="signup-row">
          <span>{t('login.noAccount')}</span>
          <Link to="/signup" className="button secondary">
            {t('login.signUp')}
          </Link>
        </div>
        <p className="season1">{t('login.season1Note', { date: season1End })}</p>
        <nav className="login-links" aria-label={t('login.title')}>
          <a href={CONTACT_FORM_URL} target="_blank" rel="noreferrer" className="link">
            {t('login.contact')}
          </a>
          <Link to="/credits" className="link">
            {t('login.credits')}
          </Link>
        </nav>
        <LanguageSwitch />
      </form>
    </main>
  );
}
