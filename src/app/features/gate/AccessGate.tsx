// The access gate of application-spec §2 and §4. While the session loads, 'Loading session...'
// shows; a visitor with no session goes to /login with the originating location kept in state.
// A volunteer whose password is not set, whose nickname is empty or whose questionnaire is
// missing meets the forced set-password, nickname and questionnaire dialogs in that order; none
// can be dismissed, and the session is fetched again after each. Only then is the page shown.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import type { CurrentUser } from '../../../../shared/api';
import { sessionQueryKey, useSession } from '../../api/session';
import { useDialogs } from '../../components/dialogs';
import { Spinner } from '../../components/Spinner';
import { NicknameDialog } from './NicknameDialog';
import { QuestionnaireDialog } from './QuestionnaireDialog';
import { SetPasswordDialog } from './SetPasswordDialog';

export type GateStep = 'password' | 'nickname' | 'questionnaire';

/** The first forced dialog a user still has to pass, or null when none is left. */
export function gateStep(user: CurrentUser): GateStep | null {
  if (!user.password_is_set) return 'password';
  if (user.nickname.trim() === '') return 'nickname';
  if (!user.private_information_present) return 'questionnaire';
  return null;
}

export function AccessGate({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const session = useSession();
  const dialogs = useDialogs();
  const queryClient = useQueryClient();
  const user = session.data?.current_user ?? null;
  const step = user ? gateStep(user) : null;
  // The step whose dialog is open: one dialog per step, even when the effect runs twice.
  const open = useRef<GateStep | null>(null);

  // The account's language wins over the browser's when a page opens on an existing session
  // (application-spec §1); a later switch on this page (shift+E / shift+J) is left alone.
  const userId = user?.id;
  const userLocale = user?.locale;
  useEffect(() => {
    if (userId !== undefined && userLocale && i18n.resolvedLanguage !== userLocale)
      void i18n.changeLanguage(userLocale);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the account or its language changes
  }, [userId, userLocale]);

  useEffect(() => {
    if (!step || open.current === step) return;
    open.current = step;
    const dialog =
      step === 'password' ? <SetPasswordDialog /> : step === 'nickname' ? <NicknameDialog /> : <QuestionnaireDialog />;
    void dialogs
      .open(dialog, {
        dismissable: false,
        // The gate shows them on any route it guards: they stay until they are passed.
        keepOnRouteChange: true,
        className: step === 'questionnaire' ? 'wide' : undefined,
      })
      .then(() => {
        open.current = null;
        return queryClient.refetchQueries({ queryKey: sessionQueryKey });
      });
  }, [step, dialogs, queryClient]);

  if (session.isPending) return <Spinner text={t('common.loadingSession')} />;
  if (!user) return <Navigate to="/login" replace state={{ from: location }} />;
  if (step) return null;
  return <>{children}</>;
}
