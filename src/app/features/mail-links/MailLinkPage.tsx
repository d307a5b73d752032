// The page a mail link opens (#/signup/confirm?token=…, #/password_reset/confirm?token=…): it
// asks before it acts. Opening it changes nothing (POST /api/{kind}/link only describes the
// link), so a mail scanner or a link preview that opens the link uses nothing up; the one button
// (POST /api/{kind}/confirm) creates the account or clears the password, and the app's access
// gate then asks for the password. The page speaks the link's language, and when this browser is
// logged in as another account it says which, and that continuing logs it out, so that nobody
// is switched to another account without seeing it. A link that cannot be used says why.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type FormEvent, type RefObject } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type {
  MailLinkFailure,
  MailLinkKind,
  MailLinkResponse,
  MailLinkState,
  SessionResponse,
} from '../../../../shared/api';
import { RequestError, request } from '../../api/request';
import { takeSession, useSession } from '../../api/session';
import { Spinner } from '../../components/Spinner';

/** The names inside the texts (an address, a nickname) are the volunteer's, in any language. */
const NAME = { name: <strong translate="no" /> };

/** How long the page's action waits to be focusable: a closing dialog takes 400 ms, then a few frames. */
const FOCUS_WAIT_MS = 2000;

/**
 * Focuses the page's one action once it can take the focus, so that Enter continues. A link
 * opened in the tab of the sign-up form finds that form's 'mail sent' dialog still closing: the
 * page stays inert until the dialog is removed (autoFocus would be lost), and the dialog's opener,
 * where the focus would go back, left with its route.
 */
function useFocusWhenFree(element: RefObject<HTMLElement | null>, ready: boolean): void {
  useEffect(() => {
    if (!ready) return;
    const started = performance.now();
    let frame = 0;
    const attempt = () => {
      const target = element.current;
      if (!target) return;
      if (target.closest('[inert]')) {
        if (performance.now() - started < FOCUS_WAIT_MS) frame = requestAnimationFrame(attempt);
        return;
      }
      // Only where nothing else holds the focus (the volunteer may have moved it).
      const focused = document.activeElement;
      if (focused === null || focused === document.body) target.focus();
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [element, ready]);
}

export function MailLinkPage({ kind }: { kind: MailLinkKind }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const session = useSession();
  const linkKey = ['mailLink', kind, token] as const;
  const link = useQuery({
    queryKey: linkKey,
    queryFn: ({ signal }) => request<MailLinkResponse>('post', `/api/${kind}/link`, { token }, { signal }),
    staleTime: Infinity,
  });
  const confirm = useMutation({
    mutationFn: () => request<SessionResponse>('post', `/api/${kind}/confirm`, { token }),
    onSuccess: async (next) => {
      // Nothing of the account this browser was logged in as may show for the new one. The
      // link's description stays: dropped, it would be asked for again (and then aborted, as the
      // page leaves) by this page, still mounted while the language changes.
      await takeSession(queryClient, i18n, next, { keep: linkKey });
      // The button logs the volunteer in: like a login (application-spec §2, §4), it opens the
      // recommended course (a new volunteer's is training), once the gate's dialogs are passed.
      // Replaced, so that Back does not return to a used link.
      navigate(next.recommended_course ? `/?course=${next.recommended_course}` : '/', { replace: true });
    },
  });
  // Pressed after the link changed (used in another tab, expired while the page stood open).
  const lateFailure =
    confirm.error instanceof RequestError && confirm.error.status === 409
      ? (confirm.error.data as MailLinkFailure)
      : undefined;
  const state: MailLinkState | undefined = lateFailure?.state ?? link.data?.state;
  const locale = lateFailure?.locale ?? link.data?.locale;

  // The link's language: the one its mail was written in and its account will have.
  useEffect(() => {
    if (locale && i18n.resolvedLanguage !== locale) void i18n.changeLanguage(locale);
  }, [locale, i18n]);

  const action = useRef<HTMLButtonElement>(null);
  useFocusWhenFree(action, state === 'ready' && !session.isPending);

  // A refused or failed look-up (a rate limit, the network) has had its alert: the route's
  // error page offers the reload.
  if (link.isError) throw link.error;
  if (!state || session.isPending) return <Spinner text={t('mailLinks.checking')} />;

  if (state !== 'ready')
    return (
      <main className="page-center">
        <section className="panel form-card" aria-labelledby="mail-link-title">
          <h1 id="mail-link-title">{t('mailLinks.failure.title')}</h1>
          <p>{t(`mailLinks.failure.reasons.${state}`)}</p>
          <p>{t(`mailLinks.failure.validity.${kind}`)}</p>
          <p className="login-links">
            <Link to={`/${kind}`} className="link">
              {t(`mailLinks.failure.again.${kind}`)}
            </Link>
            <Link to="/login" className="link">
              {t('mailLinks.failure.login')}
            </Link>
          </p>
        </section>
      </main>
    );

  const email = link.data?.email ?? '';
  const current = session.data?.current_user;
  const otherAccount = current && current.email.toLowerCase() !== email.toLowerCase() ? current : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    confirm.mutate();
  }

  return (
    <main className="page-center">
      <form className="panel form-card" onSubmit={submit} aria-labelledby="mail-link-title">
        <h1 id="mail-link-title">{t(`mailLinks.${kind}.title`)}</h1>
        <p>
          <Trans i18nKey={`mailLinks.${kind}.intro`} values={{ email }} components={NAME} />
        </p>
        {otherAccount && (
          <p className="form-error" data-testid="other-account">
            <Trans
              i18nKey={`mailLinks.${kind}.otherAccount`}
              values={{ email, current: otherAccount.nickname.trim() || otherAccount.email }}
              components={NAME}
            />
          </p>
        )}
        <p className="intro">{t(`mailLinks.${kind}.next`)}</p>
        {/* The page's one action: focused (useFocusWhenFree), so that Enter continues. */}
        <button ref={action} type="submit" className="button primary" disabled={confirm.isPending}>
          {t(`mailLinks.${kind}.button`)}
        </button>
      </form>
    </main>
  );
}
